// Types of scripts/architecture-layers.mjs for tests/unit/architecture-doc.test.ts.
export declare const BEGIN: string;
export declare const END: string;
export declare function rulesOf(source: string): {
  layers: { name: string; pattern: string }[];
  allowed: Record<string, string[]>;
};
export declare function pathsOf(pattern: string): string[];
export declare function renderLayers(source: string): string;
export declare function withLayers(doc: string, source: string): string;
