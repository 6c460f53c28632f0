/** One clear line for the start-up failures a person can fix, instead of a stack trace. */
import { type Config, ConfigError } from './config.ts';
import { DataDirError } from './db/client.ts';

export function describeStartupError(error: unknown, config?: Config): string | null {
  if (error instanceof ConfigError || error instanceof DataDirError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `Port ${config?.port} is already in use. Stop the other process or set PORT to a free port.`;
  if (code === 'EACCES' && config) return `Not allowed to listen on ${config.host}:${config.port}. Use a port above 1024.`;
  if (code === 'ECONNREFUSED' && config?.databaseUrl) return 'Cannot reach the PostgreSQL server named by DATABASE_URL.';
  return null;
}
