import { apiMessages } from '../../shared/messages';
import { type Banner, bannerElement, type SaveBannerInput } from '../../shared/schemas/banners';
import type { Prisma } from '../db/generated/client';
import { AppError } from '../errors';
import type { CallerContext } from './context';

/** Banner designs: private to the user who made them (another user's id is 404). */

const select = {
  id: true,
  name: true,
  elements: true,
  updatedAt: true,
} as const satisfies Prisma.BannerSelect;
type Row = Prisma.BannerGetPayload<{ select: typeof select }>;

function toBanner(row: Row): Banner {
  // Stored elements were validated on the way in; parsing again keeps the answer's type honest.
  const elements = bannerElement.array().safeParse(row.elements);
  return {
    _id: row.id,
    name: row.name,
    elements: elements.success ? elements.data : [],
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listBanners(ctx: CallerContext) {
  const rows = await ctx.db.banner.findMany({
    where: { userId: ctx.user.id },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: 100,
    select: { id: true, name: true, updatedAt: true },
  });
  return rows.map((row) => ({ _id: row.id, name: row.name, updatedAt: row.updatedAt.toISOString() }));
}

/** The caller's own banner, or 404: another user's id reveals nothing, even to an admin. */
async function own(ctx: CallerContext, id: string): Promise<Row> {
  const row = await ctx.db.banner.findFirst({ where: { id, userId: ctx.user.id }, select });
  if (!row) throw new AppError('NOT_FOUND', apiMessages.notFound);
  return row;
}

export async function getBanner(ctx: CallerContext, { id }: { id: string }) {
  return toBanner(await own(ctx, id));
}

export async function saveBanner(ctx: CallerContext, input: SaveBannerInput) {
  const elements = input.elements as unknown as Prisma.InputJsonValue;
  if (input.id) {
    await own(ctx, input.id);
    return toBanner(
      await ctx.db.banner.update({ where: { id: input.id }, data: { name: input.name, elements }, select }),
    );
  }
  return toBanner(
    await ctx.db.banner.create({ data: { userId: ctx.user.id, name: input.name, elements }, select }),
  );
}

export async function deleteBanner(ctx: CallerContext, { id }: { id: string }) {
  await own(ctx, id);
  await ctx.db.banner.delete({ where: { id } });
  return { message: 'Banner deleted' };
}
