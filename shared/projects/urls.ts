/** Where a run's artifact (a gzipped tarball of its last commit) is downloaded. */
export function runArtifactUrl(publicBaseUrl: string, slug: string, runId: string): string {
  return `${publicBaseUrl}/projects/${slug}/runs/${runId}/artifact`;
}
