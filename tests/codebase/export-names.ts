/**
 * Finds names that two source modules both declare as exports. Read from the syntax alone (no type
 * checking), so it is quick: `export { x } from './y'`, `export * from` and a re-export of an imported
 * binding declare nothing, so passing one thing on under its own name is never a collision.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE_FILE = /\.[cm]?tsx?$/;

/** Every TypeScript file under the given folders of `root`, as root-relative paths with forward slashes. */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  return folders.flatMap((folder) =>
    fs
      .readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => SOURCE_FILE.test(file) && !file.endsWith('.d.ts'))
      .map((file) => `${folder}/${file.split(path.sep).join('/')}`),
  );
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return (ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined)?.some((m) => m.kind === kind) ?? false;
}

function importedBindings(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isImportEqualsDeclaration(statement)) names.add(statement.name.text);
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
    const { name, namedBindings } = statement.importClause;
    if (name) names.add(name.text);
    if (namedBindings && ts.isNamespaceImport(namedBindings)) names.add(namedBindings.name.text);
    if (namedBindings && ts.isNamedImports(namedBindings)) for (const e of namedBindings.elements) names.add(e.name.text);
  }
  return names;
}

/** The names a module declares as exports of its own (default exports aside: they have no name to collide). */
export function declaredExports(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const imported = importedBindings(source);
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (hasModifier(statement, ts.SyntaxKind.ExportKeyword) && !hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
        }
      } else if (
        (ts.isFunctionDeclaration(statement) ||
          ts.isClassDeclaration(statement) ||
          ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement) ||
          ts.isEnumDeclaration(statement) ||
          ts.isModuleDeclaration(statement)) &&
        statement.name &&
        ts.isIdentifier(statement.name)
      ) {
        names.add(statement.name.text);
      }
    }
    // `export { local as name }` without `from`: a declaration of this module unless `local` was imported.
    if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        const local = (element.propertyName ?? element.name).text;
        if (!imported.has(local) && element.name.text !== 'default') names.add(element.name.text);
      }
    }
  }
  return [...names];
}

/** Each name declared by more than one module, with those modules (sorted). */
export function collisions(modules: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const [file, names] of modules) for (const name of names) byName.set(name, [...(byName.get(name) ?? []), file]);
  return new Map([...byName].filter(([, files]) => files.length > 1).map(([name, files]) => [name, files.sort()]));
}
