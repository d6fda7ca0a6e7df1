export const MIN_NODE_MAJOR: number;
export function refuseOldRuntime(what: string): void;
