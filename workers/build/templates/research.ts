import type { BuildProject } from '../brain';
import {
  commandOutput,
  commit,
  mdLine,
  runCommand,
  sentencesOf,
  writeFile,
  type TemplatePlanner,
} from './common';

/** `research-agent`: research questions, a note file per question and a report. */
export const researchPlanner: TemplatePlanner = {
  steps: (project) => [
    `Frame the research questions of "${mdLine(project.title)}"`,
    'Take structured notes per question',
    'Write the report and measure it',
    'Report the result',
  ],
  turns: [
    (project) => ({
      text: 'Turning the brief into research questions.',
      calls: [
        writeFile('questions.md', questionsFile(project)),
        commit('Frame the research questions'),
      ],
    }),
    (project) => ({
      text: 'Opening a note file per question: what the brief says, what to verify, where to look.',
      calls: [
        ...notes(project).map(({ path, body }) => writeFile(path, body)),
        commit('Add notes per question'),
      ],
    }),
    (project) => ({
      text: 'Writing the report and counting its words.',
      calls: [
        writeFile('report.md', report(project)),
        runCommand('wc', '-w', 'report.md', 'questions.md'),
        commit('Write the research report'),
      ],
    }),
    (project, journal) => ({
      text: `Research on "${mdLine(project.title)}" is written up in report.md. Size:\n${commandOutput(journal, 3) ?? 'not measured'}`,
      calls: [],
    }),
  ],
};

function questions(project: BuildProject): string[] {
  const fromBrief = sentencesOf(project.brief, 3).map(
    (sentence) =>
      `What evidence supports or contradicts: "${mdLine(sentence).replace(/[.!?]$/, '')}"?`,
  );
  return [...fromBrief, `Who else works on ${mdLine(project.title)}, and what did they learn?`];
}

function questionsFile(project: BuildProject): string {
  const list = questions(project)
    .map((question, index) => `${index + 1}. ${question}`)
    .join('\n');
  return `# Research questions: ${mdLine(project.title)}

Brief: ${project.brief.trim()}

${list}
`;
}

function notes(project: BuildProject): { path: string; body: string }[] {
  return questions(project).map((question, index) => ({
    path: `notes/q${index + 1}.md`,
    body: `# Q${index + 1}. ${question}

## What the brief states

${project.brief.trim()}

## To verify

- The claim in the question, with a primary source.
- Numbers: where they come from and how recent they are.

## Sources to check

- Official documentation and published data
- Independent reviews and critiques
`,
  }));
}

function report(project: BuildProject): string {
  const findings = questions(project)
    .map(
      (question, index) =>
        `### Q${index + 1}. ${question}\n\nStatus: open. Notes in notes/q${index + 1}.md.`,
    )
    .join('\n\n');
  return `# Report: ${mdLine(project.title)}

## Summary

This report frames ${questions(project).length} research questions drawn from the brief, with a
note file per question listing what to verify and where. Findings are marked open until a
source confirms them.

## Findings

${findings}

## Next steps

1. Verify each claim against a primary source and record it in its note file.
2. Update the status of every finding above.
`;
}
