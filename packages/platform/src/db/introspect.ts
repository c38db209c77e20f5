import type { Kysely } from 'kysely';

export interface SchemaDescription {
  [table: string]: { name: string; nullable: boolean }[];
}

/** Tables and columns (sorted), dialect-neutral: used to prove both dialects get the same schema. */
export async function describeSchema(db: Kysely<unknown>): Promise<SchemaDescription> {
  const tables = await db.introspection.getTables();
  const out: SchemaDescription = {};
  for (const t of tables.sort((a, b) => a.name.localeCompare(b.name))) {
    out[t.name] = t.columns
      .map((c) => ({ name: c.name, nullable: c.isNullable }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
  return out;
}
