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

/**
 * An edit (`m.replace`) of `eventId`: `m.new_content` is the message as it now reads; the outer
 * body is the `* ` fallback that clients without edits show.
 */
export function editContent(eventId: string, message: OutgoingMessage): Record<string, unknown> {
  const replacement = messageContent({ text: message.text, markdown: message.markdown });
  return {
    msgtype: 'm.text',
    body: `* ${replacement.body}`,
    ...(replacement.formatted_body
      ? { format: replacement.format, formatted_body: `* ${replacement.formatted_body}` }
      : {}),
    'm.new_content': replacement,
    'm.relates_to': { rel_type: 'm.replace', event_id: eventId },
  };
}

/** An uploaded file as the homeserver holds it, for an `m.image` or `m.file` event. */
export interface UploadedFile {
  mxc: string;
  filename: string;
  mimetype: string;
  size: number;
  /** Pixel size, for images. */
  w?: number;
  h?: number;
}

/**
 * An `m.image` (photo) or `m.file` (document) message (Matrix v1.10 media captions): `body` is
 * the caption when there is one and `filename` the file's name, so clients show both; without a
 * caption `body` is the file name. `info` always carries mimetype and size (and w/h for
 * images): clients lay out and warn by them before downloading.
 */
export function mediaContent(
  msgtype: 'm.image' | 'm.file',
  file: UploadedFile,
  message: { caption?: string; markdown?: boolean; replyTo?: string },
): Record<string, unknown> {
  const text =
    message.caption === undefined
      ? null
      : messageContent({ text: message.caption, markdown: message.markdown });
  const info: Record<string, unknown> = { mimetype: file.mimetype, size: file.size };
  if (file.w !== undefined && file.h !== undefined) {
    info.w = file.w;
    info.h = file.h;
  }
  return {
    msgtype,
    body: text?.body ?? file.filename,
    ...(text?.formatted_body ? { format: text.format, formatted_body: text.formatted_body } : {}),
    filename: file.filename,
    url: file.mxc,
    info,
    ...(message.replyTo
      ? { 'm.relates_to': { 'm.in_reply_to': { event_id: message.replyTo } } }
      : {}),
  };
}
