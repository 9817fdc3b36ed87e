// Renders each kustomization with `kubectl kustomize` and validates every rendered object against
// the Kubernetes OpenAPI schemas shipped in kubernetes-models, offline (no cluster is contacted).
//
// Usage: node --import tsx scripts/validate-manifests.ts [kustomization-dir ...]
// With no argument: deploy/base and every deploy/overlays/* folder. Exits 1 on any invalid object;
// without kubectl it fails under CI and otherwise skips with a message.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseAllDocuments } from "yaml";

const root = resolve(import.meta.dirname, "..");

/** A rendered Kubernetes object, as far as validation needs to know it. */
interface KubeObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown };
}

/** What kubernetes-models exports for each kind: a class whose instances validate themselves. */
type ModelClass = new (data: object) => { validate(): void };

/** The kustomization folders checked by default. */
function defaultTargets(): string[] {
  const overlays = join(root, "deploy", "overlays");
  const names = existsSync(overlays) ? readdirSync(overlays).sort() : [];
  return [join(root, "deploy", "base"), ...names.map((n) => join(overlays, n))];
}

/** The kubernetes-models class for `apiVersion` and `kind`, or why there is none. */
async function modelFor(apiVersion: string, kind: string): Promise<ModelClass | string> {
  // "apps/v1" lives under apps/v1/, the core group's "v1" under v1/.
  if (!/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind))
    return `unknown apiVersion/kind ${apiVersion} ${kind}`;
  try {
    const module = (await import(`kubernetes-models/${apiVersion}/${kind}`)) as Record<string, unknown>;
    const model = module[kind];
    return typeof model === "function" ? (model as ModelClass) : `kubernetes-models has no ${kind} in ${apiVersion}`;
  } catch {
    return `no Kubernetes schema for ${apiVersion} ${kind}`;
  }
}

/** Every problem with the objects `dir` renders to, as lines naming the object. */
async function problemsOf(dir: string): Promise<string[]> {
  const rendered = spawnSync("kubectl", ["kustomize", dir], { encoding: "utf8" });
  if (rendered.status !== 0) return [`kubectl kustomize failed: ${rendered.stderr.trim()}`];
  const problems: string[] = [];
  const documents = parseAllDocuments(rendered.stdout);
  if (documents.length === 0) problems.push("renders no object");
  for (const document of documents) {
    if (document.errors.length > 0) {
      problems.push(`unreadable YAML: ${document.errors[0]?.message}`);
      continue;
    }
    const object = document.toJS() as KubeObject;
    const name = `${String(object.kind)}/${String(object.metadata?.name)}`;
    const model = await modelFor(String(object.apiVersion), String(object.kind));
    if (typeof model === "string") {
      problems.push(`${name}: ${model}`);
      continue;
    }
    try {
      new model(object).validate();
    } catch (error) {
      problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}

if (spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" }).status !== 0) {
  const message = "validate-manifests: kubectl is not installed (apt-get install kubernetes-client)";
  if (process.env["CI"] === "true") {
    console.error(message);
    process.exit(1);
  }
  console.log(`${message}; skipped`);
  process.exit(0);
}

const targets = process.argv.length > 2 ? process.argv.slice(2).map((d) => resolve(d)) : defaultTargets();
let failed = false;
for (const dir of targets) {
  const shown = relative(root, dir) || ".";
  const problems = await problemsOf(dir);
  for (const problem of problems) console.error(`validate-manifests: ${shown}: ${problem}`);
  if (problems.length > 0) failed = true;
  else console.log(`validate-manifests: ${shown}: every object matches its Kubernetes schema`);
}
process.exit(failed ? 1 : 0);
