// Types of tool-palette/node: a folder of Agent Skills (SPEC 9) loaded in one call, in Node.js (and Deno and Bun).
import type { Skill } from "../index.js";

/** A folder as node:fs takes it: a path, or a `file:` URL (a `URL` instance). */
export type SkillsFolder = string | { readonly href: string; readonly protocol: string };

export interface ReadSkillsOptions {
    /**
     * Gets each `SKILL.md` that could not be read or parsed, with its path, and that skill is skipped: the `SyntaxError` of
     * `parseSkill` (or of bytes that are not UTF-8), the `RangeError` of a text too large, or the error of node:fs (no file
     * but a folder or a pipe, no permission, a symlink loop). Without it the first such error (in the folders' order) is
     * thrown. What it throws is thrown; what it returns is not awaited.
     */
    onError?: ((error: unknown, path: string) => void) | undefined;
}

/**
 * The skills of a folder laid out as `<dir>/<name>/SKILL.md` (the layout of `.claude/skills` and `.agents/skills`), each
 * read by `parseSkill(text, { path })`, so a name that differs from its folder's warns: frozen, in the code-unit order of
 * the folders' names. Entries without a `SKILL.md` (files, folders without one, broken symlinks) are skipped; symlinks
 * are followed; the text is UTF-8 (a leading BOM dropped), and a file over 32 MiB is refused unread. A `dir` that
 * cannot be listed rejects with node:fs's error; a `dir` holding a `SKILL.md` itself, or a bad argument, with a
 * `TypeError` naming it.
 */
export declare function readSkills(dir: SkillsFolder, options?: ReadSkillsOptions): Promise<readonly Skill[]>;

/** {@link readSkills}, synchronously (for start-up code and CommonJS modules that cannot await). */
export declare function readSkillsSync(dir: SkillsFolder, options?: ReadSkillsOptions): readonly Skill[];
