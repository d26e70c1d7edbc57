import type { BuildProject } from '../brain';
import {
  commandOutput,
  commit,
  mdLine,
  runCommand,
  sentencesOf,
  slugOf,
  writeFile,
  type TemplatePlanner,
} from './common';

const POST_COUNT = 3;

/** `content-machine`: an outline, three draft posts, word counts and a publishing schedule. */
export const contentPlanner: TemplatePlanner = {
  steps: (project) => [
    `Outline the content for "${mdLine(project.title)}"`,
    `Draft ${POST_COUNT} posts`,
    'Count the words of every piece',
    'Write the publishing schedule with the word counts',
    'Report the result',
  ],
  turns: [
    (project) => ({
      text: 'Outlining the series from the brief.',
      calls: [writeFile('outline.md', outline(project)), commit('Outline the content series')],
    }),
    (project) => ({
      text: `Drafting ${POST_COUNT} posts, one per theme of the outline.`,
      calls: [
        ...postFiles(project).map(({ path, body }) => writeFile(path, body)),
        commit('Draft three posts'),
      ],
    }),
    (project) => ({
      text: 'Counting the words of the outline and the drafts.',
      calls: [runCommand('wc', '-w', 'outline.md', ...postFiles(project).map(({ path }) => path))],
    }),
    (project, journal) => ({
      text: 'Writing the publishing schedule, with the word counts measured above.',
      calls: [
        writeFile('publishing-plan.md', publishingPlan(project, commandOutput(journal, 3) ?? '')),
        commit('Add publishing schedule and word counts'),
      ],
    }),
    (project, journal) => ({
      text: `The "${mdLine(project.title)}" series is drafted: outline, ${POST_COUNT} posts and a schedule. Word counts:\n${commandOutput(journal, 3) ?? 'none recorded'}`,
      calls: [],
    }),
  ],
};

function themes(project: BuildProject): string[] {
  const sentences = sentencesOf(project.brief, POST_COUNT);
  const fallbacks = ['Why it matters', 'How it works', 'What comes next'];
  return Array.from({ length: POST_COUNT }, (_, index) => sentences[index] ?? fallbacks[index]!);
}

function outline(project: BuildProject): string {
  const sections = themes(project)
    .map((theme, index) => `${index + 1}. **Post ${index + 1}**: ${mdLine(theme)}`)
    .join('\n');
  return `# ${mdLine(project.title)}: content outline

## Goal

${project.brief.trim()}

## Series

${sections}

## Voice

Plain, concrete, one idea per paragraph; every post ends with one clear next step for the reader.
`;
}

function postFiles(project: BuildProject): { path: string; body: string }[] {
  return themes(project).map((theme, index) => {
    const number = String(index + 1).padStart(2, '0');
    const path = `posts/${number}-${slugOf(theme, `post-${number}`)}.md`;
    const body = `# ${mdLine(theme)}

*Part ${index + 1} of ${POST_COUNT} in "${mdLine(project.title)}".*

${mdLine(theme)} This post explains the idea in plain terms, shows where it fits in the bigger
picture of ${mdLine(project.title)}, and gives one example a reader can try today.

## The idea

Start from the problem the reader has, not from the product. State it in one sentence, then
show what changes once ${mdLine(project.title)} is in place.

## An example

Walk through one small, real situation from start to finish, with the numbers that matter.

## Next step

Invite the reader to the next post in the series, or to try the example themselves.
`;
    return { path, body };
  });
}

function publishingPlan(project: BuildProject, wordCounts: string): string {
  const rows = themes(project)
    .map(
      (theme, index) =>
        `| Week ${index + 1} | Post ${index + 1}: ${mdLine(theme).replace(/\|/g, '/')} |`,
    )
    .join('\n');
  return `# Publishing plan: ${mdLine(project.title)}

| When | What |
|---|---|
${rows}

## Word counts (wc -w)

\`\`\`
${wordCounts}
\`\`\`
`;
}
