// Shared reads of public content for server components (through the one loader, ./page-data).
import type { ArticleDto, CategoryDto, TitleDto } from './actions/help';
import { load } from './page-data';

export type { ArticleDto, CategoryDto, TitleDto };

/** The newest news items (HelpRenovation.GetInnerNewsArticle, page size 6). */
export async function latestNews(): Promise<TitleDto[]> {
  return (await load('HelpRenovation.GetInnerNewsArticle', { page: 1, pageSize: 6 }, null))?.list ?? [];
}
