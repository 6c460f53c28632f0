/** LIKE / ILIKE patterns from user text: its own %, _ and \ match themselves, never as wildcards. */
export const likeEscape = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);
