// /helpDetails/{url}.html: one help or news article (also accepts detail_{id}.html).
import { type ArticlePayload, ArticleView } from '../../../components/help/article-view';
import { HelpFrame, HelpSidebar } from '../../../components/help/help-parts';
import { parseHelpSlug } from '../../../server/domain/help';
import { loadHelpSidebar } from '../../../server/help-pages';
import { notFoundPage } from '../../../server/page-status';
import { publicCall } from '../../../server/public-data';

export default async function HelpDetailsPage({ slug }: { slug: string }) {
  const parsed = parseHelpSlug(slug);
  if (!parsed) return notFoundPage();
  const [article, sidebar] = await Promise.all([
    publicCall<ArticlePayload>(
      'HelpRenovation.GetArticleById',
      parsed.kind === 'id' ? { id: parsed.id } : { url: parsed.url },
    ),
    loadHelpSidebar(),
  ]);
  if (!article) return notFoundPage();
  return (
    <HelpFrame
      sidebar={
        <HelpSidebar categories={sidebar.categories} hot={sidebar.hot} activeCategoryId={article.article.categoryId} />
      }
    >
      <ArticleView data={article} />
    </HelpFrame>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
