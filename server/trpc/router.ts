import { createCallerFactory, router } from './init';

/**
 * The application's router: one sub-router per file under server/routers (DESIGN.md section 2),
 * added here by the issues that bring them.
 */
export const appRouter = router({});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
