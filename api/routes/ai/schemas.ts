import { z } from 'zod';
import { TOKEN_TEMPLATES } from '../../../shared/db/entities/token';
import { PLATFORM_TOOL_NAMES } from '../../../shared/domain/tools';
import { BRIEF_MAX_LENGTH } from '../tokens/schemas';
import { SUGGESTION_LIMITS } from './rules';

/** Wire shapes of the AI metadata fill (docs/spec/contract.md §15). */

export const MAX_VARIANTS = 3;

const brief = z
  .string({ error: 'is required' })
  .trim()
  .min(1, { error: `must be 1 to ${BRIEF_MAX_LENGTH} characters` })
  .max(BRIEF_MAX_LENGTH, { error: `must be 1 to ${BRIEF_MAX_LENGTH} characters` })
  .describe('What the project is, in the creator’s words: sent to the model as data');

const keptName = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: `must be 1 to ${max} characters` })
    .max(max, { error: `must be 1 to ${max} characters` });

export const tokenFillBody = z
  .strictObject({
    brief,
    template: z.enum(TOKEN_TEMPLATES),
    keep: z
      .strictObject({
        name: keptName(SUGGESTION_LIMITS.token.name).optional(),
        ticker: z.string().optional().describe('3 to 6 characters A-Z, 0-9; must not be taken'),
      })
      .optional()
      .describe('Fixed by the creator: every suggestion uses it as given'),
    variants: z
      .number()
      .int({ error: `must be an integer from 1 to ${MAX_VARIANTS}` })
      .min(1, { error: `must be an integer from 1 to ${MAX_VARIANTS}` })
      .max(MAX_VARIANTS, { error: `must be an integer from 1 to ${MAX_VARIANTS}` })
      .default(1)
      .describe('How many suggestions'),
  })
  .meta({
    examples: [
      {
        brief: 'A research agent that reads new DeFi papers every day and writes summaries.',
        template: 'virtuals',
        variants: 2,
      },
      { brief: 'Our community tree for mentors', template: 'dpnm', keep: { ticker: 'MENT' } },
    ],
  });

export const agentFillBody = z
  .strictObject({
    brief,
    keep: z
      .strictObject({ name: keptName(SUGGESTION_LIMITS.agent.name).optional() })
      .optional()
      .describe('Fixed by the creator: the suggestion uses it as given'),
  })
  .meta({
    examples: [{ brief: 'Summarises long PDFs and answers questions about them, with sources.' }],
  });

const model = z.string().describe('The model that answered');
const requestId = z.string().describe('This request’s id, as in the logs and X-Request-Id');

export const tokenFillSchema = z
  .object({
    suggestions: z.array(
      z.object({
        name: z.string(),
        ticker: z.string().describe('Follows the ticker rules; not used by any token yet'),
        description: z.string(),
        tags: z.array(z.string()),
      }),
    ),
    model,
    requestId,
  })
  .meta({
    id: 'TokenMetadataSuggestions',
    examples: [
      {
        suggestions: [
          {
            name: 'Paper Trail',
            ticker: 'PAPER',
            description: 'A research agent that reads new DeFi papers daily and summarises them.',
            tags: ['research', 'defi'],
          },
        ],
        model: 'gpt-4o-mini',
        requestId: '5b0c2d7e-9a41-4c3f-8e2b-1f6a7d9c0e34',
      },
    ],
  });

export const agentFillSchema = z
  .object({
    suggestions: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        tags: z.array(z.string()),
        tools: z.array(z.enum(PLATFORM_TOOL_NAMES)).describe('Only platform tools'),
      }),
    ),
    model,
    requestId,
  })
  .meta({
    id: 'AgentMetadataSuggestions',
    examples: [
      {
        suggestions: [
          {
            name: 'PDF Companion',
            description: 'Summarises long PDFs and answers questions about them, citing pages.',
            tags: ['documents', 'summaries'],
            tools: ['file_search'],
          },
        ],
        model: 'gpt-4o-mini',
        requestId: '5b0c2d7e-9a41-4c3f-8e2b-1f6a7d9c0e34',
      },
    ],
  });
