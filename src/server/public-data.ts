// Server components' reads of public actions: through the one API client (in-process), silently falling back to null
// when an action fails or does not exist yet (seed: failed list loads fall back to empty lists or objects).
import type { ArticleDto, CategoryDto, TitleDto } from './actions/help';
import { serverApi } from './api-server';

/** Call an action for a page; null on E, failure or an unknown action. */
export async function publicCall<T>(action: string, params: Record<string, unknown> = {}): Promise<T | null> {
  try {
    const r = await (await serverApi()).call<T>(action, params, { silent: true });
    return r === false || r === null || r === undefined ? null : (r as T);
  } catch {
    return null;
  }
}

export type { ArticleDto, CategoryDto, TitleDto };

/** The newest news items (HelpRenovation.GetInnerNewsArticle, page size 6). */
export async function latestNews(): Promise<TitleDto[]> {
  return (
    (await publicCall<{ list: TitleDto[] }>('HelpRenovation.GetInnerNewsArticle', { page: 1, pageSize: 6 }))?.list ?? []
  );
}
