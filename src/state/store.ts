// The browser's one jotai store (server renders get a fresh store per request from <Provider> without a store).
import { createStore } from 'jotai';

export type AppStore = ReturnType<typeof createStore>;

/** The browser store; null during server rendering so no state is shared across requests. */
export const browserStore: AppStore | null = typeof window === 'undefined' ? null : createStore();
