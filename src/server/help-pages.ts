// Data loading shared by the help-centre pages (through the public actions).

import { load } from './page-data';
import type { CategoryDto, TitleDto } from './public-data';

/** Every category (with counts) and the hot titles, for the sidebar. */
export async function loadHelpSidebar(): Promise<{ categories: CategoryDto[]; hot: TitleDto[] }> {
  const [cats, hot] = await Promise.all([
    load('HelpRenovation.ArticleSecondCategoryList', {}, null),
    load('HelpRenovation.HotArticleTitleList', { pageSize: 8 }, null),
  ]);
  return { categories: cats?.list ?? [], hot: hot?.list ?? [] };
}
