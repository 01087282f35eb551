import { z } from 'zod';
import { idSchema } from './common';

/** Banner designs: canvas elements saved per user. */

const finite = z.number().finite();
const common = {
  id: z.string().min(1).max(100),
  x: finite,
  y: finite,
  draggable: z.boolean().default(true),
  fill: z.string().max(50).optional(),
  scaleX: finite.default(1),
  scaleY: finite.default(1),
  rotation: finite.default(0),
};

export const bannerElement = z.discriminatedUnion('type', [
  z.object({
    ...common,
    type: z.literal('text'),
    text: z.string().max(2000),
    fontSize: finite.min(1).max(1000),
    fontStyle: z.string().max(30).default('normal'),
    underline: z.boolean().default(false),
  }),
  z.object({ ...common, type: z.literal('rect'), width: finite.min(0), height: finite.min(0) }),
  z.object({ ...common, type: z.literal('circle'), radius: finite.min(0) }),
  z.object({
    ...common,
    type: z.literal('image'),
    /** A data: URL of a file the user picked (nothing is fetched from outside). */
    src: z
      .string()
      .max(700_000, { error: 'The image is too large to save; use one under 500 KB' })
      .regex(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/, {
        error: 'Images must be PNG, JPEG, GIF or WebP',
      }),
    width: finite.min(0),
    height: finite.min(0),
  }),
]);
export type BannerElement = z.infer<typeof bannerElement>;

const MAX_ELEMENTS = 200;
export const bannerName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, { error: 'Name is required' })
  .max(100, { error: 'Cannot exceed 100 characters' });

export const saveBannerInput = z.object({
  /** Absent: a new design. */
  id: idSchema.optional(),
  name: bannerName,
  elements: z.array(bannerElement).max(MAX_ELEMENTS, { error: `At most ${MAX_ELEMENTS} elements` }),
});
export type SaveBannerInput = z.infer<typeof saveBannerInput>;

export const banner = z.object({
  _id: idSchema,
  name: z.string(),
  elements: z.array(bannerElement),
  updatedAt: z.iso.datetime(),
});
export type Banner = z.infer<typeof banner>;

export const bannerSummary = banner.omit({ elements: true });
export const bannerIdInput = z.object({ id: idSchema });
