import { accountRouter } from './routers/account/router';
import { apiKeysRouter } from './routers/api-keys/router';
import { appsRouter } from './routers/apps/router';
import { keywordsRouter } from './routers/keywords/router';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  account: accountRouter,
  apiKeys: apiKeysRouter,
  apps: appsRouter,
  keywords: keywordsRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
