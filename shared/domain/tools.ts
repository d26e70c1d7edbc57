/** The platform's tools an agent may use and price (docs/spec/contract.md §8); any other is `tool_unknown`. */
export const PLATFORM_TOOLS = {
  web_search: 'Searches the web and returns ranked results',
  web_fetch: 'Fetches a web page or document by URL',
  code_interpreter: 'Runs code in a sandbox and returns its output',
  image_generation: 'Generates images from a prompt',
  file_search: 'Searches files the caller provided',
  browser: 'Drives a headless browser',
  shell: 'Runs shell commands in the agent’s sandbox',
  git: 'Reads and writes git repositories',
} as const;

export type PlatformTool = keyof typeof PLATFORM_TOOLS;

export const PLATFORM_TOOL_NAMES = Object.keys(PLATFORM_TOOLS) as PlatformTool[];

export function isPlatformTool(name: string): name is PlatformTool {
  return Object.hasOwn(PLATFORM_TOOLS, name);
}
