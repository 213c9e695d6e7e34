// The action registry: every /api action by its seed name. Groups live in one file each.
import type { AnyAction } from './define';
import { redirectActions } from './redirect';
import { userActions } from './user';

export const registry: Record<string, AnyAction> = {
  ...userActions,
  ...redirectActions,
};
