/** Where a run's artifact (a gzipped tarball of its last commit) is downloaded. */
export function runArtifactUrl(publicBaseUrl: string, slug: string, runId: string): string {
  return `${publicBaseUrl}/projects/${slug}/runs/${runId}/artifact`;
}

/** A project's live build page (HTML, served by the API: api/pages/build-page.ts). */
export function projectPageUrl(publicBaseUrl: string, slug: string): string {
  return `${publicBaseUrl}/p/${slug}`;
}
