/**
 * Named prepared statements on PGlite (PREPARED_MARKER). PGlite's own `query` sends every statement unnamed, so
 * PostgreSQL parses, analyses and plans it on each call: for the FHIR Task write's two statements that is about
 * 3 ms of their 5 (bench/tmp timing by protocol message, decision 0055). A marked statement is parsed and described
 * once per PGlite instance under its name and from then on only bound and executed; PostgreSQL keeps its plan
 * (generic once it costs no more than the custom ones). The same extended-protocol messages PGlite sends itself,
 * in the same exclusive section, and the answer parsed by PGlite's own `parseResults`.
 */
import { type PGlite, parse, protocol, type Results } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];
type Parsers = Record<number, (value: string, typeId?: number) => unknown>;

interface Statement {
  /** The parameters' types as PostgreSQL inferred them (how each value is serialised). */
  paramTypes: number[];
  /** The row description, which an Execute does not repeat: prepended to each answer for parseResults. */
  rowDescription: BackendMessage | undefined;
}

function concat(...messages: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(messages.reduce((n, m) => n + m.length, 0));
  let at = 0;
  for (const message of messages) {
    all.set(message, at);
    at += message.length;
  }
  return all;
}

const statementsOf = new WeakMap<PGlite, Map<string, Statement>>();
const { serialize } = protocol;

/**
 * Runs `text` as the named statement `name` on `client`. `inTransaction`: the transaction's COMMIT writes the data
 * directory; otherwise it is written after the statement, as PGlite's `query` does.
 */
export async function preparedQuery<T>(
  client: PGlite,
  name: string,
  text: string,
  params: unknown[] = [],
  options: { rowMode?: 'array' | 'object' } | undefined,
  inTransaction: boolean,
): Promise<Results<T>> {
  let statements = statementsOf.get(client);
  if (!statements) {
    statements = new Map();
    statementsOf.set(client, statements);
  }
  const known = statements;
  const send = (message: Uint8Array) => client.execProtocolStream(message, { syncToFs: false });
  const result = await client._runExclusiveQuery(async () => {
    let statement = known.get(name);
    if (!statement) {
      const described = await send(
        concat(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()),
      );
      const parameters = described.find((m) => m.name === 'parameterDescription') as { dataTypeIDs: number[] } | undefined;
      statement = {
        paramTypes: parameters?.dataTypeIDs ?? [],
        rowDescription: described.find((m) => m.name === 'rowDescription'),
      };
      known.set(name, statement);
    }
    const { paramTypes, rowDescription } = statement;
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = client.serializers[paramTypes[i] as number];
      return serializer ? serializer(value) : String(value);
    });
    // Bind, Execute and Sync in one exchange, as a network client sends them: after an error the backend skips to
    // the Sync, so the session is ready for the next statement either way (the error is thrown after).
    const answer = await send(concat(serialize.bind({ statement: name, values }), serialize.execute({}), serialize.sync()));
    if (rowDescription) answer.unshift(rowDescription);
    return parse.parseResults(answer, (client as unknown as { parsers: Parsers }).parsers, options)[0] as Results<T>;
  });
  if (!inTransaction) await client.syncToFs();
  return result;
}
