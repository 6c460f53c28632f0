/** The field paths of a 400 answer in the one error shape (DESIGN §3), sorted, for comparing with a list. */
export function errorPaths(res: { json: () => unknown }): string[] {
  const body = res.json() as { error: { details: { path: string }[] } };
  return body.error.details.map((d) => d.path).sort();
}
