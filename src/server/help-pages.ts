// Data loading shared by the help-centre pages (through the public actions).
import { type CategoryDto, publicCall, type TitleDto } from './public-data';

/** Every category (with counts) and the hot titles, for the sidebar. */
export async function loadHelpSidebar(): Promise<{ categories: CategoryDto[]; hot: TitleDto[] }> {
  const [cats, hot] = await Promise.all([
    publicCall<{ list: CategoryDto[] }>('HelpRenovation.ArticleSecondCategoryList'),
    publicCall<{ list: TitleDto[] }>('HelpRenovation.HotArticleTitleList', { pageSize: 8 }),
  ]);
  return { categories: cats?.list ?? [], hot: hot?.list ?? [] };
}
