import { convert } from 'html-to-text';
import { OutboundError, type OutboundClient } from '../../../shared/net/outbound-client';
import { ToolError } from '../errors';
import { cutText } from '../storable';

/**
 * `fetch_url`: a public web page, read through the SSRF-safe outbound client (https only,
 * never a private address, no redirects followed, time and size capped), its text extracted
 * so the brain reads words rather than markup. It reaches outside the workspace, so under the
 * default policy it asks the owner first (docs/guides/approvals.md).
 */

/** How much of the page's text the result carries (it is recorded in the public event log). */
export const FETCH_TEXT_CHARS = 8 * 1024;

export interface FetchResult {
  url: string;
  status: number;
  contentType: string | null;
  title: string | null;
  text: string;
  truncated: boolean;
}

export async function fetchUrl(client: OutboundClient, url: string): Promise<FetchResult> {
  let response;
  try {
    response = await client.getText(url, {});
  } catch (err) {
    if (err instanceof OutboundError) throw new ToolError(`fetch_url: ${err.message}`);
    throw err;
  }
  if (response.status >= 300 && response.status < 400) {
    throw new ToolError(
      `fetch_url: the page redirects (${response.status}) to ${response.headers.location ?? 'nowhere'}; fetch that URL if it is the one you want`,
    );
  }
  if (response.status >= 400) {
    throw new ToolError(`fetch_url: the page answered ${response.status}`);
  }
  const contentType = response.headers['content-type'] ?? null;
  const html = !contentType || /html|xml/i.test(contentType);
  const text = html
    ? convert(response.body, {
        wordwrap: false,
        selectors: [
          { selector: 'a', options: { ignoreHref: true } },
          { selector: 'img', format: 'skip' },
        ],
      })
    : response.body;
  const rawTitle = html ? /<title[^>]*>([^<]*)<\/title>/i.exec(response.body)?.[1] : undefined;
  const title = rawTitle ? convert(rawTitle, { wordwrap: false }).trim() : null;
  const whole = text.trim();
  return {
    url,
    status: response.status,
    contentType,
    title: title ? cutText(title, 200) : null,
    text: cutText(whole, FETCH_TEXT_CHARS),
    truncated: response.truncated || whole.length > FETCH_TEXT_CHARS,
  };
}
