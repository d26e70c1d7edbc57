import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: string;
  content: string | null;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
}

/** The chat-completions request body, as far as the tests read it. */
export interface ChatBody {
  model: string;
  messages: ChatMessage[];
  tools: { type: string; function: { name: string; parameters: unknown } }[];
  tool_choice: unknown;
  response_format?: {
    type: string;
    json_schema?: { name: string; strict: boolean; schema: unknown };
  };
}

/** A request the fake LLM received. */
export interface LlmRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatBody;
}

export interface LlmReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (the connection stays open until the server closes). */
  hang?: boolean;
}

/**
 * A real OpenAI-compatible chat-completions server on loopback, scripted per request by the
 * test (`handler`), recording every request it gets.
 */
export interface FakeLlm {
  url: string;
  requests: LlmRequest[];
  handler: (request: LlmRequest) => LlmReply;
  close(): Promise<void>;
}

export async function startLlmServer(): Promise<FakeLlm> {
  const fake: FakeLlm = {
    url: '',
    requests: [],
    handler: () => ({ status: 500, body: { error: { message: 'no script' } } }),
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: LlmRequest = {
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(text || '{}') as ChatBody,
      };
      fake.requests.push(request);
      let reply: LlmReply;
      try {
        reply = fake.handler(request);
      } catch (err) {
        reply = { status: 599, body: { error: { message: (err as Error).message } } };
      }
      if (reply.hang) return;
      res.writeHead(reply.status ?? 200, {
        'content-type': 'application/json',
        ...reply.headers,
      });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      // Requests left hanging on purpose would hold close() forever.
      server.closeAllConnections();
    });
  return fake;
}

export interface ScriptedCall {
  name: string;
  args: unknown;
}

/** Builders for the build tools' calls, as a brain would send them. */
export const toolCall = {
  writeFile: (path: string, content = 'x\n'): ScriptedCall => ({
    name: 'write_file',
    args: { path, content },
  }),
  runCommand: (command: string, ...args: string[]): ScriptedCall => ({
    name: 'run_command',
    args: { command, args },
  }),
  commit: (message: string): ScriptedCall => ({ name: 'commit', args: { message } }),
};

export interface ScriptedTurn {
  text?: string;
  calls: ScriptedCall[];
}

/**
 * A handler for a build brain driven by a script: the plan request gets a one-step plan; a turn
 * request (tool choice `auto`) gets `turn(k)`, k being the assistant messages so far.
 */
export function scriptedBrain(turn: (k: number) => ScriptedTurn | undefined) {
  return (request: LlmRequest): LlmReply => {
    if (request.body.tool_choice !== 'auto')
      return assistantReply(null, [{ name: 'update_plan', args: { steps: ['Probe'] } }]);
    const k = request.body.messages.filter((message) => message.role === 'assistant').length;
    const scripted = turn(k) ?? { calls: [] };
    return assistantReply(scripted.text ?? null, scripted.calls);
  };
}

/** A chat-completions answer with optional text and tool calls. */
export function assistantReply(text: string | null, calls: ScriptedCall[] = []): LlmReply {
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
          message: {
            role: 'assistant',
            content: text,
            ...(calls.length > 0
              ? {
                  tool_calls: calls.map((call, index) => ({
                    id: `call_fake_${index}`,
                    type: 'function',
                    function: { name: call.name, arguments: JSON.stringify(call.args) },
                  })),
                }
              : {}),
          },
        },
      ],
    },
  };
}

/**
 * A chat-completions answer whose content is `value` as JSON text (a string is sent as is), as
 * a model in JSON-schema mode answers; `refusal` and `finishReason` as the API reports them.
 */
export function contentReply(
  value: unknown,
  options: { finishReason?: string; refusal?: string; model?: string } = {},
): LlmReply {
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: options.model ?? 'fake-model-1',
      choices: [
        {
          index: 0,
          finish_reason: options.finishReason ?? 'stop',
          message: {
            role: 'assistant',
            content: options.refusal
              ? null
              : typeof value === 'string'
                ? value
                : JSON.stringify(value),
            refusal: options.refusal ?? null,
          },
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
    },
  };
}
