// 404: the not-found view inside the default layout (header and footer).
import { NotFoundView } from '../../components/not-found-view';

export default async function NotFoundPage() {
  return <NotFoundView />;
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
