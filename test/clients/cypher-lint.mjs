// cypher-lint reads [{name, query, params}] as JSON on stdin and prints, for
// each statement, the diagnostics of Neo4j's own Cypher 5 language support
// (the parser and semantic analysis Neo4j's tools use): syntax errors,
// undefined variables and parameters, deprecated syntax and functions. It is
// how the Go tests check the Cypher mcpc sends without a Neo4j server.
import { lintCypherQuery } from '@neo4j-cypher/language-support';

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const statements = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const out = statements.map(({ name, query, params }) => {
  const { diagnostics } = lintCypherQuery(query, { parameters: params ?? {} });
  return {
    name,
    diagnostics: diagnostics.map((d) => ({ severity: d.severity, message: d.message, offset: d.offsets?.start ?? null })),
  };
});
process.stdout.write(JSON.stringify(out));
