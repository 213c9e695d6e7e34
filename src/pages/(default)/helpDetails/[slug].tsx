// /helpDetails/{url}.html: one help or news article (also accepts detail_{id}.html).
import { renderArticlePage } from '../../../components/help/article-page';
import { notFoundPage } from '../../../components/not-found-view';
import { parseHelpSlug } from '../../../lib/help-paths';

export default async function HelpDetailsPage({ slug }: { slug: string }) {
  const parsed = parseHelpSlug(slug);
  if (!parsed) return notFoundPage();
  return renderArticlePage(parsed);
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
