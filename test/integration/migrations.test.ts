import { createTestContext, type TestContext } from '../helpers/context';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe('migrations', () => {
  it('leave the schema exactly as the entities describe it', async () => {
    const diff = await ctx.deps.orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });

  it('store user addresses lowercase and unique', async () => {
    await ctx.sql("insert into users (address) values ('0x" + 'a'.repeat(40) + "')");
    await expect(
      ctx.sql("insert into users (address) values ('0x" + 'a'.repeat(40) + "')"),
    ).rejects.toThrow(/users_address_unique/);
    await expect(
      ctx.sql("insert into users (address) values ('0x" + 'B'.repeat(40) + "')"),
    ).rejects.toThrow(/users_address_lowercase/);
  });
});
