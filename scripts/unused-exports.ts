// Exports of src/ that no file imports (src/, test/, bench/ and scripts/ count as importers), found
// with the TypeScript compiler over tsconfig.json. `bun run scripts/unused-exports.ts` lists them,
// each marked "also unused in its file" when nothing at all refers to it (dead code) rather than
// only nothing outside its file (then only the `export` keyword is surplus); `--count` prints the
// two counts alone. A namespace import, `export *`, `require()` or `import()` of a module counts as
// using all of its exports.
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dir, '..');

interface Unused {
  file: string;
  name: string;
  /** Referred to nowhere, its own file included. */
  dead: boolean;
}

function moduleFile(checker: ts.TypeChecker, specifier: ts.Expression): string | undefined {
  const symbol = checker.getSymbolAtLocation(specifier);
  const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  return declaration && ts.isSourceFile(declaration) ? declaration.fileName : undefined;
}

export function unusedExports(root = ROOT): Unused[] {
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, root);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const checker = program.getTypeChecker();
  const own = program.getSourceFiles().filter((file) => !file.isDeclarationFile && !relative(root, file.fileName).startsWith('node_modules'));
  const used = new Set<string>();
  const useAll = (file: string | undefined) => file && used.add(`${file}#*`);
  const useName = (file: string | undefined, name: string) => file && used.add(`${file}#${name}`);
  // The declaration an imported name finally stands for, through any re-exports.
  const useTarget = (symbol: ts.Symbol | undefined) => {
    if (!symbol) return;
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declaration = target.declarations?.[0];
    if (declaration) used.add(`${declaration.getSourceFile().fileName}#${target.name}`);
  };

  for (const file of own) {
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) {
        const from = moduleFile(checker, node.moduleSpecifier);
        const clause = node.importClause;
        if (clause?.name) useName(from, 'default');
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) useAll(from);
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) {
            useName(from, (element.propertyName ?? element.name).text);
            useTarget(checker.getSymbolAtLocation(element.name));
          }
        }
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        const from = moduleFile(checker, node.moduleSpecifier);
        if (!node.exportClause) useAll(from);
        else if (ts.isNamedExports(node.exportClause)) {
          for (const element of node.exportClause.elements) {
            useName(from, (element.propertyName ?? element.name).text);
            useTarget(checker.getExportSpecifierLocalTargetSymbol(element));
          }
        }
      } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
        const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
        if (isRequire || node.expression.kind === ts.SyntaxKind.ImportKeyword) {
          const target = resolve(dirname(file.fileName), node.arguments[0].text);
          for (const candidate of own) if (candidate.fileName === `${target}.ts` || candidate.fileName === target) useAll(candidate.fileName);
        }
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        const target = resolve(dirname(file.fileName), node.argument.literal.text);
        for (const candidate of own) if (candidate.fileName === `${target}.ts`) useAll(candidate.fileName);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  const unused: Unused[] = [];
  for (const file of own) {
    const path = relative(root, file.fileName);
    if (!path.startsWith('src/')) continue;
    const moduleSymbol = checker.getSymbolAtLocation(file);
    if (!moduleSymbol || used.has(`${file.fileName}#*`)) continue;
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      if (used.has(`${file.fileName}#${symbol.name}`)) continue;
      // A declaration of this file reached through another module's re-export.
      const declaredHere = symbol.declarations?.some((d) => d.getSourceFile() === file && !ts.isExportSpecifier(d));
      if (declaredHere && used.has(`${file.fileName}#${symbol.name}`)) continue;
      unused.push({ file: path, name: symbol.name, dead: !referredToInFile(checker, file, symbol) });
    }
  }
  return unused.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
}

/** Whether an identifier of the file, other than a declaration's own name, stands for the symbol. */
function referredToInFile(checker: ts.TypeChecker, file: ts.SourceFile, symbol: ts.Symbol): boolean {
  const names = new Set(symbol.declarations?.map((d) => (d as ts.NamedDeclaration).name).filter(Boolean));
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(node) && node.text === symbol.name && !names.has(node)) {
      const at =
        ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
          ? checker.getShorthandAssignmentValueSymbol(node.parent)
          : checker.getSymbolAtLocation(node);
      if (
        at === symbol ||
        (at && at.flags & ts.SymbolFlags.Alias && checker.getAliasedSymbol(at) === symbol) ||
        checker.getExportSymbolOfSymbol(at ?? symbol) === symbol
      ) {
        if (at) found = true;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

if (import.meta.main) {
  const unused = unusedExports();
  const dead = unused.filter((u) => u.dead).length;
  if (!process.argv.includes('--count')) for (const u of unused) console.log(`${u.file}: ${u.name}${u.dead ? ' (also unused in its file)' : ''}`);
  console.log(`${unused.length} exports nothing imports; ${dead} of them referred to nowhere`);
}
