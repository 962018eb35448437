export declare const BUILD_STAMP: string;
/** Why dist/ under `root` is not current, in one line, or null when it is. */
export declare function staleBuild(root: string): string | null;
