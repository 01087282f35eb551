import { apiMessages } from '../../shared/messages';
import { type Banner, bannerElement, type SaveBannerInput } from '../../shared/schemas/banners';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { AppError } from '../errors';

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

export async function listBanners(db: Db, userId: string) {
  const rows = await db.banner.findMany({
    where: { userId },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: 100,
    select: { id: true, name: true, updatedAt: true },
  });
  return rows.map((row) => ({ _id: row.id, name: row.name, updatedAt: row.updatedAt.toISOString() }));
}

async function own(db: Db, userId: string, id: string): Promise<Row> {
  const row = await db.banner.findFirst({ where: { id, userId }, select });
  if (!row) throw new AppError('NOT_FOUND', apiMessages.notFound);
  return row;
}

export async function getBanner(db: Db, userId: string, id: string) {
  return toBanner(await own(db, userId, id));
}

export async function saveBanner(db: Db, userId: string, input: SaveBannerInput) {
  const elements = input.elements as unknown as Prisma.InputJsonValue;
  if (input.id) {
    await own(db, userId, input.id);
    return toBanner(
      await db.banner.update({ where: { id: input.id }, data: { name: input.name, elements }, select }),
    );
  }
  return toBanner(await db.banner.create({ data: { userId, name: input.name, elements }, select }));
}

export async function deleteBanner(db: Db, userId: string, id: string) {
  await own(db, userId, id);
  await db.banner.delete({ where: { id } });
  return { message: 'Banner deleted' };
}
