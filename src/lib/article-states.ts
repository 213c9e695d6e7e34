// A help or news article's stored state (articles.state): a draft (0) or published (1), with the words the console
// shows. TypeScript compares with these names and the SQL in src/server/db interpolates them.
export const ARTICLE_STATE = { draft: 0, published: 1 } as const;
export type ArticleState = (typeof ARTICLE_STATE)[keyof typeof ARTICLE_STATE];

/** 已发布 or 未发布. */
export const articleStateText = (state: number): string => (state === ARTICLE_STATE.published ? '已发布' : '未发布');
