// One help or news article inside the help frame, shared by /help/{url}.html and /helpDetails/{url}.html.
import type { ReactElement } from 'react';
import type { HelpSlug } from '../../lib/help-paths';
import { loadHelpSidebar } from '../../server/help-pages';
import { load } from '../../server/page-data';
import { notFoundPage } from '../not-found-view';
import { ArticleView } from './article-view';
import { HelpFrame, HelpSidebar } from './help-parts';

/** Render the article a parsed slug names, or the 404 view. */
export async function renderArticlePage(
  parsed: HelpSlug,
  sidebar?: Awaited<ReturnType<typeof loadHelpSidebar>>,
): Promise<ReactElement> {
  const [article, side] = await Promise.all([
    load('HelpRenovation.GetArticleById', parsed.kind === 'id' ? { id: parsed.id } : { url: parsed.url }, null),
    sidebar ?? loadHelpSidebar(),
  ]);
  if (!article) return notFoundPage();
  return (
    <HelpFrame
      sidebar={
        <HelpSidebar categories={side.categories} hot={side.hot} activeCategoryId={article.article.categoryId} />
      }
    >
      <ArticleView data={article} />
    </HelpFrame>
  );
}
