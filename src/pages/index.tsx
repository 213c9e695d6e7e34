export default async function HomePage() {
  return <h1>首页</h1>;
}
export const getConfig = async () => ({ render: 'dynamic' }) as const;
