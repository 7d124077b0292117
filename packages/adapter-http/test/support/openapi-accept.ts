/**
 * `npm run openapi:accept`: keep the served OpenAPI document of every known
 * API version as its released document (docs/testing.md). A version without a
 * kept document is kept as it is (a new release). A version whose served
 * document only adds to its kept one has the additions accepted. A version
 * whose served document breaks its kept one is refused, and the command exits
 * 1 listing the breaking changes: those need a new API version (a version
 * change in core with its transforms), not an edit of a released document.
 */
import { compareOpenApi, describeChanges } from './openapi-compatibility.js';
import { keepDocument, keptDocument, keptVersions, knownVersions, servedDocument } from './released-openapi.js';

let refused = false;
const kept = new Set(keptVersions());
for (const version of knownVersions()) {
  const served = servedDocument(version);
  if (!kept.has(version)) {
    keepDocument(version, served);
    console.log(`${version}: kept (a new release)`);
    continue;
  }
  const changes = compareOpenApi(keptDocument(version), served);
  const breaking = changes.filter((c) => c.breaking);
  if (breaking.length > 0) {
    refused = true;
    console.error(`${version}: REFUSED, ${breaking.length} breaking change(s) need a new API version:\n${describeChanges(breaking)}`);
    continue;
  }
  keepDocument(version, served);
  console.log(
    changes.length === 0
      ? `${version}: unchanged (annotations, if any, refreshed)`
      : `${version}: ${changes.length} addition(s) accepted:\n${describeChanges(changes)}`,
  );
}
for (const version of kept)
  if (!knownVersions().includes(version))
    console.error(`${version}: kept, but no longer a known version (a released version is never withdrawn)`);
if (refused) process.exitCode = 1;
