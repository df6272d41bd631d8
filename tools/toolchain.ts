/**
 * The toolchain as the core sees it: the one module the documents under org/
 * import (as `passepartout/toolchain`, package.json's exports), so that what
 * lies behind it is free to change. A test fails on an import of anything else
 * of tools/ from org/.
 */
export {type Capability, builtinName, moduleCapability} from './check/capabilities.ts'
export {OriginMap} from './check/origin-map.ts'
export {holdsNeverReadable, neverReadable, type Places, readRefusal} from './check/reading.ts'
export {
  APPROVALS_PAGE,
  type ClientCommandName,
  type CommandName,
  COMMANDS,
  commandsRunBy,
  type CoreCommandName,
  type OwnCoreCommandName,
  type Runs,
} from './cli/command-table.ts'
export {type CommandInvocation, framesOf, parseCommandLine} from './cli/command-line.ts'
export {printDiagnostics} from './cli/output.ts'
export {printUsageError, UsageError} from './cli/usage.ts'
export {RESTART_EXIT_CODE} from './core-process.ts'
export {debug} from './debug.ts'
export {type Dotenv, lineOf, readDotenv} from './dotenv.ts'
export {
  type Diagnostic,
  diagnostic,
  diagnosticJson,
  displayPath,
  formatDiagnostic,
  isError,
  type Message,
  type RuleId,
} from './diagnostics.ts'
export type {DependencyEntry, DocumentMeta} from './org/document-meta.ts'
export {installationRoot, packageFolder} from './installation.ts'
export {readProjectFile, readProjectText, SETTINGS_FILE_MAX_BYTES} from './project-file.ts'
export {findProjectRoot} from './project.ts'
export {type CheckReport, hasCheckErrors} from './session/project-checker.ts'
export {ProjectSession, type SessionOptions} from './session/project-session.ts'
export {readToolchainSettings} from './settings.ts'
export {fileStamp, type OrgChange, type OrgWatcher, watchOrgFiles} from './watch/org-watcher.ts'
export {
  API_VERSION,
  forTheCore,
  type Reading,
  type SkillDocument,
  type SkillGraph,
  type SkillModule,
  skillGraph,
} from './session/skill-documents.ts'
export {skillTwins} from './session/skill-twins.ts'
export {stateFolder} from './tangle/cache.ts'
export {sourceMapOf} from './tangle/source-map.ts'
export {colourOn, type Palette, paletteFor, PLAIN, printable, readByAPerson} from './terminal.ts'
export type {SourceText} from './tangle/text.ts'
