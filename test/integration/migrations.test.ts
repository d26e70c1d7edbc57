import { useTestApp } from '../helpers/context';

const test = useTestApp({ apis: 0 });

describe('migrations', () => {
  it('leave the schema exactly as the entities describe it', async () => {
    const diff = await test.ctx.deps.orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });

  it('store user addresses lowercase and unique', async () => {
    await test.ctx.sql("insert into users (address) values ('0x" + 'a'.repeat(40) + "')");
    await expect(
      test.ctx.sql("insert into users (address) values ('0x" + 'a'.repeat(40) + "')"),
    ).rejects.toThrow(/users_address_unique/);
    await expect(
      test.ctx.sql("insert into users (address) values ('0x" + 'B'.repeat(40) + "')"),
    ).rejects.toThrow(/users_address_lowercase/);
  });
});
