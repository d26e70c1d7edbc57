import MarkdownIt from 'markdown-it';
import type { MessageContent } from './client';

/**
 * Markdown for bot messages: only bold, italic, inline code, code blocks and line breaks
 * (markdown-it's `zero` preset with those rules on). Raw HTML is off, so `<script>` in the text
 * reaches `formatted_body` as `&lt;script&gt;`: text, never markup.
 */
const markdown = new MarkdownIt('zero', { html: false, breaks: true }).enable([
  'emphasis',
  'backticks',
  'fence',
  'newline',
  'escape',
]);

export interface OutgoingMessage {
  text: string;
  markdown?: boolean;
  replyTo?: string;
}

/** The `m.room.message` content: `body` is always the text as given. */
export function messageContent(message: OutgoingMessage): MessageContent {
  return {
    msgtype: 'm.text',
    body: message.text,
    ...(message.markdown
      ? { format: 'org.matrix.custom.html', formatted_body: markdown.render(message.text).trim() }
      : {}),
    ...(message.replyTo
      ? { 'm.relates_to': { 'm.in_reply_to': { event_id: message.replyTo } } }
      : {}),
  };
}
