import { z } from 'zod';
import { banner, bannerIdInput, bannerSummary, saveBannerInput } from '../../shared/schemas/banners';
import { messageAnswer } from '../../shared/schemas/common';
import * as banners from '../services/banners';
import { protectedProcedure, router } from '../trpc/init';

/** Saved banner designs, each private to its author. */
export const bannersRouter = router({
  list: protectedProcedure.output(z.array(bannerSummary)).query(({ ctx }) => banners.listBanners(ctx)),

  get: protectedProcedure
    .input(bannerIdInput)
    .output(banner)
    .query(({ ctx, input }) => banners.getBanner(ctx, input)),

  save: protectedProcedure
    .input(saveBannerInput)
    .output(banner)
    .mutation(({ ctx, input }) => banners.saveBanner(ctx, input)),

  delete: protectedProcedure
    .input(bannerIdInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => banners.deleteBanner(ctx, input)),
});
