// ESLint's flat config (docs/decisions/0349). Prettier owns the layout; ESLint checks the house rules: promises
// handled, switches exhaustive, type imports marked, kebab-case file names, process.env read in one place, lines
// ≤ 120 characters (comments included). Nothing is parked: the tree passes every rule.
import { defineConfig } from 'eslint/config'
import checkFile from 'eslint-plugin-check-file'
import n from 'eslint-plugin-n'
import tseslint from 'typescript-eslint'

export default defineConfig(
  {
    // Generated and vendored files, and what .gitignore lists (Prettier reads .gitignore itself).
    ignores: ['dist/', 'specs/', '**/*.gen.ts', 'tasks-lite/corpus/', 'coverage/', 'runs/', 'sft/', 'jobs/', '.*/'],
  },
  {
    files: ['**/*.{ts,mts,mjs,js}'],
    languageOptions: { parser: tseslint.parser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin, 'check-file': checkFile, n },
    rules: {
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,mts,mjs,js}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { '**/': 'KEBAB_CASE' }],
      'n/no-process-env': 'error',
    },
  },
  {
    // Type-aware rules need the program: every TypeScript file is in tsconfig.json.
    files: ['**/*.{ts,mts}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // A `default:` is a deliberate catch-all (docs/decisions/0349); a switch without one must list every member.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // process.env belongs to server/env.ts; command-line entry points, tests and tooling configs read it too.
    files: ['server/env.ts', 'scripts/**', 'bin/**', 'tests/**', 'trainer/cli.ts', '*.config.{ts,mjs}'],
    rules: { 'n/no-process-env': 'off' },
  },
)
