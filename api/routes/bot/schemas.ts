import { z } from 'zod';
import { ERROR_DOCS, ERROR_STATUS, type ErrorCode } from '../../../shared/errors';
import { errorsOf } from '../../openapi/errors';
import { BOT_STATUS, type BotErrorCode } from './errors';

/**
 * The bot gateway's wire shapes (spec "Bot messaging gateway", docs/bot-gateway.md). Field
 * names are snake_case like the Matrix API behind it; errors have the gateway's own body.
 */

export const MESSAGE_TEXT_MAX = 40_000;

const roomId = z
  .string()
  .max(255, { error: 'must be at most 255 characters' })
  .regex(/^!\S+$/, { error: 'must be a Matrix room id (it starts with !)' });

const eventId = z
  .string()
  .max(255, { error: 'must be at most 255 characters' })
  .regex(/^\$\S+$/, { error: 'must be a Matrix event id such as $abc' });

export const sendMessageBody = z
  .strictObject({
    room_id: roomId.describe('The room to send to; the bot must have joined it'),
    text: z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(MESSAGE_TEXT_MAX, { error: `must be at most ${MESSAGE_TEXT_MAX} characters` })
      .describe('The message; sent as the plain `body` in any case'),
    markdown: z
      .boolean()
      .optional()
      .describe(
        'Also send it as HTML (`formatted_body`): bold, italic, code and line breaks; raw ' +
          'HTML in the text is shown as text',
      ),
    reply_to: eventId.optional().describe('The event this message replies to'),
  })
  .meta({
    id: 'BotSendMessageRequest',
    examples: [
      {
        room_id: '!kXwqLtBfrGnQhvTuZs:example.org',
        text: '**Build finished**: your project _Atlas_ is live',
        markdown: true,
      },
    ],
  });

export const sendMessageResult = z
  .object({
    event_id: z.string().describe('The Matrix event id of the message, for replies and follow-ups'),
  })
  .meta({
    id: 'BotSendMessageResult',
    examples: [{ event_id: '$Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg' }],
  });

export const joinRoomBody = z
  .strictObject({
    room_id: roomId.optional().describe('A room id (`!id:server`)'),
    room_alias: z
      .string()
      .max(255, { error: 'must be at most 255 characters' })
      .regex(/^#[^:\s]+:\S+$/, { error: 'must be a Matrix room alias such as #news:example.org' })
      .optional()
      .describe('A room alias (`#alias:server`) of a public room'),
  })
  .refine((body) => (body.room_id === undefined) !== (body.room_alias === undefined), {
    error: 'give exactly one of room_id and room_alias',
  })
  .meta({
    id: 'BotJoinRoomRequest',
    examples: [
      { room_alias: '#announcements:example.org' },
      { room_id: '!kXwqLtBfrGnQhvTuZs:example.org' },
    ],
  });

export const joinRoomResult = z
  .object({ room_id: z.string().describe('The id of the room the bot is now in') })
  .meta({ id: 'BotJoinRoomResult', examples: [{ room_id: '!kXwqLtBfrGnQhvTuZs:example.org' }] });

export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x20-\x7e]{1,255}$/, { error: 'must be 1 to 255 printable ASCII characters' })
    .optional()
    .describe(
      'Makes a retried send safe: the same key gives the same event_id and one message ' +
        '(it becomes the Matrix transaction id)',
    ),
});

export const botErrorSchema = z
  .object({
    error: z
      .string()
      .describe(
        'invalid_body, unauthorized, forbidden, room_not_found, rate_limited, send_failed, ...',
      ),
    detail: z.string().optional().describe('What went wrong, for a person'),
  })
  .meta({
    id: 'BotError',
    examples: [{ error: 'forbidden', detail: 'The bot is not in the room. Call joinRoom first.' }],
  });

/** What each gateway code means, and a `detail` as the gateway writes one. */
const BOT_ERROR_DOCS: Record<BotErrorCode, { description: string; detail?: string }> = {
  invalid_body: {
    description: 'The body (or a header) is invalid; `detail` names the field',
    detail: 'room_id: must be a Matrix room id (it starts with !)',
  },
  unauthorized: { description: 'X-Service-Bot-Token is missing or wrong' },
  forbidden: {
    description: 'The bot may not do this in the room (not joined, not invited, not public)',
    detail: 'The bot is not in the room. Call joinRoom first.',
  },
  not_own_message: {
    description: 'The event is not a text message the bot sent: only those can be edited',
    detail: 'The event $abc is not a message of the bot; it can edit only its own messages.',
  },
  event_not_found: {
    description: 'The room has no such event the bot can see',
    detail: 'The room !abc:example.org has no event $abc the bot can see.',
  },
  already_member: {
    description: 'The user is already in the room',
    detail: '@alice:example.org is already in the room !abc:example.org.',
  },
  media_not_found: {
    description: 'No media of this bot token has the `media_id`',
    detail: 'media_id: bm_Xq3v9LrT2pWkZbN8sYcA1d is not a file this bot uploaded',
  },
  file_too_large: {
    description:
      'The file is over the route’s limit (photos 10 MiB and 32 megapixels, documents 50 MiB) ' +
      'or the homeserver’s',
    detail: 'file: is larger than 10 MiB (photos); send it with sendDocument',
  },
  unsupported_media_type: {
    description:
      'A photo that is not PNG, JPEG, GIF or WebP (read from its bytes), or a body ' +
      'that is neither JSON nor multipart/form-data',
    detail:
      'file: is not a PNG, JPEG, GIF or WebP image (read from its bytes); send it with sendDocument',
  },
  fetch_failed: {
    description: 'The `photo_url` or `document_url` could not be fetched; `detail` says why',
    detail: 'photo_url: the server answered 404',
  },
  room_not_found: {
    description: 'The homeserver does not know the room or alias',
    detail: 'The homeserver does not know the room #announcements:example.org.',
  },
  rate_limited: {
    description: 'Rate limited (the gateway’s own limit, or the homeserver’s beyond 10 s)',
    detail: 'The homeserver is rate-limiting the bot; retry after 4 s.',
  },
  send_failed: {
    description: 'The homeserver failed or is unreachable; a retry is safe',
    detail: 'The homeserver answered 502. Retry is safe.',
  },
};

type BotDocumentedCode = BotErrorCode | ErrorCode;

function isBotCode(code: string): code is BotErrorCode {
  return Object.hasOwn(BOT_STATUS, code);
}

/**
 * `schema.errors` of a gateway route: its own codes, `{"error","detail"}` bodies, and the
 * main API's generic errors as `botErrorOf` (./errors.ts) translates them.
 */
export const botErrors = errorsOf<BotDocumentedCode>({
  schema: 'BotError',
  status: (code) => (isBotCode(code) ? BOT_STATUS[code] : ERROR_STATUS[code]),
  description: (code) =>
    isBotCode(code) ? BOT_ERROR_DOCS[code].description : ERROR_DOCS[code].description,
  example: (code) => {
    if (code === 'unauthorized') return { error: code };
    if (isBotCode(code)) return { error: code, detail: BOT_ERROR_DOCS[code].detail };
    const detail =
      ERROR_STATUS[code] >= 500 ? 'Internal error; retry shortly' : ERROR_DOCS[code].example;
    return { error: code, detail };
  },
  fromPlatform: (code) => {
    const status = ERROR_STATUS[code];
    if (status === 401) return 'unauthorized';
    if (status === 400) return 'invalid_body';
    return code;
  },
});

const messageText = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(MESSAGE_TEXT_MAX, { error: `must be at most ${MESSAGE_TEXT_MAX} characters` });

export const editMessageBody = z
  .strictObject({
    room_id: roomId,
    event_id: eventId.describe('A text message the bot sent'),
    text: messageText.describe('The message as it should now read'),
    markdown: z.boolean().optional().describe('As in sendMessage'),
  })
  .meta({
    id: 'BotEditMessageRequest',
    examples: [
      {
        room_id: '!kXwqLtBfrGnQhvTuZs:example.org',
        event_id: '$Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg',
        text: 'Build **finished** (3 commits)',
        markdown: true,
      },
    ],
  });

export const deleteMessageBody = z
  .strictObject({
    room_id: roomId,
    event_id: eventId,
    reason: z
      .string()
      .max(500, { error: 'must be at most 500 characters' })
      .optional()
      .describe('Shown to clients with the redaction'),
  })
  .meta({
    id: 'BotDeleteMessageRequest',
    examples: [
      {
        room_id: '!kXwqLtBfrGnQhvTuZs:example.org',
        event_id: '$Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg',
        reason: 'Sent by mistake',
      },
    ],
  });

export const MAX_REACTIONS = 20;

export const setReactionBody = z
  .strictObject({
    room_id: roomId,
    event_id: eventId,
    reaction: z
      .array(
        z
          .string()
          .min(1, { error: 'must not be empty' })
          .max(64, { error: 'must be at most 64 characters' }),
      )
      .max(MAX_REACTIONS, { error: `must list at most ${MAX_REACTIONS} reactions` })
      .describe(
        'The bot’s reactions on the event afterwards (emoji keys; a repeated key counts once); ' +
          '[] clears them',
      ),
  })
  .meta({
    id: 'BotSetReactionRequest',
    examples: [
      {
        room_id: '!kXwqLtBfrGnQhvTuZs:example.org',
        event_id: '$Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg',
        reaction: ['👍'],
      },
    ],
  });

export const setReactionResult = z
  .object({
    reactions: z.array(
      z.object({ key: z.string(), event_id: z.string().describe('The reaction event') }),
    ),
  })
  .meta({
    id: 'BotSetReactionResult',
    examples: [{ reactions: [{ key: '👍', event_id: '$r1-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5' }] }],
  });

export const inviteUserBody = z
  .strictObject({
    room_id: roomId,
    user_id: z
      .string()
      .max(255, { error: 'must be at most 255 characters' })
      .regex(/^@[^:\s]+:\S+$/, { error: 'must be a Matrix user id such as @alice:example.org' }),
  })
  .meta({
    id: 'BotInviteUserRequest',
    examples: [{ room_id: '!kXwqLtBfrGnQhvTuZs:example.org', user_id: '@alice:example.org' }],
  });

export const inviteUserResult = z
  .object({ invited: z.literal(true) })
  .meta({ id: 'BotInviteUserResult', examples: [{ invited: true }] });

const limit = z.coerce
  .number({ error: 'must be an integer from 1 to 100' })
  .int({ error: 'must be an integer from 1 to 100' })
  .min(1, { error: 'must be an integer from 1 to 100' })
  .max(100, { error: 'must be an integer from 1 to 100' })
  .default(20)
  .describe('Page size, 20 by default, at most 100');
const cursor = z
  .string()
  .max(512, { error: 'must be the next_cursor of an earlier page' })
  .optional()
  .describe('The next_cursor of the previous page');

export const roomsQuery = z.object({ limit, cursor });

export const roomsResult = z
  .object({
    items: z.array(
      z.object({
        room_id: z.string(),
        name: z.string().nullable(),
        joined_members: z.number().int(),
      }),
    ),
    next_cursor: z.string().nullable().describe('Null on the last page'),
  })
  .meta({
    id: 'BotRoomsResult',
    examples: [
      {
        items: [
          { room_id: '!kXwqLtBfrGnQhvTuZs:example.org', name: 'Announcements', joined_members: 42 },
        ],
        next_cursor: null,
      },
    ],
  });

export const roomParams = z.object({
  id: roomId.meta({ examples: ['!kXwqLtBfrGnQhvTuZs:example.org'] }).describe('A room id'),
});

export const membersQuery = z.object({
  limit,
  cursor,
  membership: z.enum(['join', 'invite']).default('join'),
});

export const membersResult = z
  .object({
    items: z.array(
      z.object({
        user_id: z.string(),
        display_name: z.string().nullable(),
        membership: z.enum(['join', 'invite']),
      }),
    ),
    next_cursor: z.string().nullable().describe('Null on the last page'),
  })
  .meta({
    id: 'BotMembersResult',
    examples: [
      {
        items: [{ user_id: '@alice:example.org', display_name: 'Alice', membership: 'join' }],
        next_cursor: null,
      },
    ],
  });

const mediaIdField = z
  .string()
  .max(64, { error: 'must be a media_id of an earlier answer' })
  .describe('The `media.media_id` of an earlier answer: sent again without a new upload');

const fileUrl = (what: string) =>
  z
    .string()
    .max(2048, { error: 'must be at most 2048 characters' })
    .describe(
      `An https URL the gateway fetches the ${what} from (public addresses only; up to 3 ` +
        'redirects, each checked again)',
    );

/** The fields both file routes share, as JSON properties or multipart fields. */
const fileMessageFields = {
  room_id: roomId.describe('The room to send to; the bot must have joined it'),
  media_id: mediaIdField.optional(),
  caption: messageText.optional().describe('Shown with the file; the same rules as `text`'),
  markdown: z.boolean().optional().describe('The caption as markdown, as in sendMessage'),
  reply_to: eventId.optional().describe('The event this message replies to'),
  filename: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' })
    .optional()
    .describe(
      'The name clients show and save the file under; by default the uploaded part’s name, the ' +
        'URL’s last segment or the name it was first sent under',
    ),
};

export const sendPhotoBody = z
  .strictObject({ ...fileMessageFields, photo_url: fileUrl('photo').optional() })
  .meta({
    id: 'BotSendPhotoRequest',
    description:
      'As JSON with `photo_url` or `media_id`, or as `multipart/form-data` with the same fields ' +
      'first and the image last in a part named `file`: exactly one of the three.',
    examples: [
      {
        room_id: '!kXwqLtBfrGnQhvTuZs:example.org',
        photo_url: 'https://example.org/charts/atlas-week-48.png',
        caption: 'Atlas, **week 48**',
        markdown: true,
      },
      { room_id: '!kXwqLtBfrGnQhvTuZs:example.org', media_id: 'bm_Xq3v9LrT2pWkZbN8sYcA1d' },
    ],
  });

export const sendDocumentBody = z
  .strictObject({ ...fileMessageFields, document_url: fileUrl('document').optional() })
  .meta({
    id: 'BotSendDocumentRequest',
    description:
      'As JSON with `document_url` or `media_id`, or as `multipart/form-data` with the same ' +
      'fields first and the file last in a part named `file`: exactly one of the three.',
    examples: [
      {
        room_id: '!kXwqLtBfrGnQhvTuZs:example.org',
        document_url: 'https://example.org/reports/atlas-2026-11.pdf',
        caption: 'The November report',
      },
    ],
  });

export const sendFileResult = z
  .object({
    event_id: z.string().describe('The Matrix event id of the message'),
    media: z.object({
      media_id: z
        .string()
        .describe('Send the same file again by this id (this bot token only), with no upload'),
      mimetype: z.string().describe('Read from the bytes'),
      size: z.number().int().describe('Bytes'),
      w: z.number().int().optional().describe('Width in pixels (photos)'),
      h: z.number().int().optional().describe('Height in pixels (photos)'),
    }),
  })
  .meta({
    id: 'BotSendFileResult',
    examples: [
      {
        event_id: '$Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg',
        media: {
          media_id: 'bm_Xq3v9LrT2pWkZbN8sYcA1d',
          mimetype: 'image/png',
          size: 184_320,
          w: 1280,
          h: 720,
        },
      },
    ],
  });
