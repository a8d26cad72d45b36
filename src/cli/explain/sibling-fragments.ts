import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Kind, parse, visit, type DefinitionNode, type DocumentNode, type FragmentDefinitionNode } from 'graphql';

/**
 * The document plus the fragments it spreads but does not define, taken from the other `*.graphql` files
 * next to it, as codegen sees a folder of operations as one set (operations/author-card.graphql holds
 * the AuthorCard fragment the book operations spread). Fragments still missing are left for validation
 * to report.
 */
export async function withSiblingFragments(document: DocumentNode, file: string): Promise<DocumentNode> {
  if (missingFragments(document.definitions).length === 0) return document;
  const available = await fragmentsInFolder(dirname(file), basename(file));
  const definitions = [...document.definitions];
  for (let missing = missingFragments(definitions); missing.length > 0; missing = missingFragments(definitions)) {
    const found = missing.flatMap((name) => {
      const fragment = available.get(name);
      return fragment ? [fragment] : [];
    });
    if (found.length === 0) break;
    definitions.push(...found);
  }
  return { ...document, definitions };
}

function missingFragments(definitions: readonly DefinitionNode[]): string[] {
  const defined = new Set(definitions.flatMap((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? [definition.name.value] : [])));
  const spread = new Set<string>();
  visit({ kind: Kind.DOCUMENT, definitions }, { FragmentSpread: (node) => void spread.add(node.name.value) });
  return [...spread].filter((name) => !defined.has(name));
}

async function fragmentsInFolder(folder: string, except: string): Promise<Map<string, FragmentDefinitionNode>> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const files = (await readdir(folder)).filter((name) => name.endsWith('.graphql') && name !== except).sort();
  for (const name of files) {
    let document: DocumentNode;
    try {
      document = parse(await readFile(join(folder, name), 'utf8'));
    } catch {
      continue; // a broken neighbour is not this operation's problem
    }
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION && !fragments.has(definition.name.value)) fragments.set(definition.name.value, definition);
    }
  }
  return fragments;
}
