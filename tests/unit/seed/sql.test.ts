// The seed's SQL builder (src/server/seed/sql.ts): values are quoted by type, anything it cannot store exactly is
// refused, and names the migrations do not have are compile errors.
import { describe, expect, it } from 'vitest';
import { col, insert, lookup, notExists, rawSql, remove, sqlValue, update } from '../../../src/server/seed/sql';

describe('the seed SQL builder', () => {
  it('quotes strings by doubling quotes, writes numbers, flags and NULL as SQLite reads them', () => {
    expect(sqlValue("O'Brien'); DROP TABLE users; --")).toBe("'O''Brien''); DROP TABLE users; --'");
    expect(sqlValue('')).toBe("''");
    expect(sqlValue(42)).toBe('42');
    expect(sqlValue(-1.5)).toBe('-1.5');
    expect(sqlValue(true)).toBe('1');
    expect(sqlValue(false)).toBe('0');
    expect(sqlValue(null)).toBe('NULL');
  });

  it('refuses values it cannot store exactly', () => {
    expect(() => sqlValue(Number.NaN)).toThrow(TypeError);
    expect(() => sqlValue(Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(() => sqlValue(2 ** 53)).toThrow(TypeError);
    expect(() => sqlValue(undefined as never)).toThrow(TypeError);
    expect(() => sqlValue(10n as never)).toThrow(TypeError);
    expect(() => sqlValue({} as never)).toThrow(TypeError);
    expect(() => insert('sellers', [{ code: 's', name: 'n', phone: undefined as never }])).toThrow(TypeError);
  });

  it('quotes interpolated values of raw SQL and of every statement', () => {
    expect(rawSql`substr(order_no, 16) = ${"x'y"}`).toEqual(rawSql`substr(order_no, 16) = 'x''y'`);
    const user = lookup('users', 'id', { phone: "1'3" });
    expect(
      insert('white_list', [{ user_id: user, ip: "1'1", created_at: 5, updated_at: 5 }], {
        select: { where: notExists('white_list', { user_id: user }) },
        onConflict: { columns: ['user_id', 'ip'], doNothing: true },
      }),
    ).toEqual([
      "INSERT INTO white_list (user_id, ip, created_at, updated_at) SELECT (SELECT id FROM users WHERE phone = '1''3'), '1''1', 5, 5 WHERE NOT EXISTS (SELECT 1 FROM white_list WHERE user_id = (SELECT id FROM users WHERE phone = '1''3')) ON CONFLICT(user_id, ip) DO NOTHING;",
    ]);
    expect(update('proxy_nodes', { last_seen_at: 7, name: "a'" }, { id: [101, 103] })).toBe(
      "UPDATE proxy_nodes SET last_seen_at = 7, name = 'a''' WHERE id IN (101, 103);",
    );
    expect(remove('articles', [{ id: [2, 3] }, { category_id: null }])).toBe(
      'DELETE FROM articles WHERE id IN (2, 3) AND category_id IS NULL;',
    );
  });

  it('writes upserts with the conflict columns left out of the update, and a WHERE before ON CONFLICT', () => {
    expect(
      insert('sellers', [{ id: 1, code: 'c', name: 'n', phone: 'p', enabled: true }], {
        onConflict: { columns: ['id'], update: 'rest' },
      }),
    ).toEqual([
      "INSERT INTO sellers (id, code, name, phone, enabled) VALUES (1, 'c', 'n', 'p', 1) ON CONFLICT(id) DO UPDATE SET code = excluded.code, name = excluded.name, phone = excluded.phone, enabled = excluded.enabled;",
    ]);
    expect(
      insert(
        'order_items',
        [
          {
            order_no: col('orders', 'order_no'),
            seq: 1,
            product_type: 10,
            billing_method: 1,
            ip_duration_minutes: 3,
            name: 'x',
            meal_id: 1,
            units: 1,
            list_fen: 1,
            value_fen: 1,
          },
        ],
        { select: { from: 'orders' }, onConflict: { columns: ['order_no', 'seq'], doNothing: true } },
      )[0],
    ).toContain('FROM orders WHERE true ON CONFLICT(order_no, seq) DO NOTHING;');
  });

  it('does not compile a misspelt table or column, or a value of the wrong type', () => {
    // @ts-expect-error no such table
    insert('user', [{ phone: '1' }]);
    // @ts-expect-error no such column
    insert('sellers', [{ code: 'c', name: 'n', phone: 'p', enabeld: 1 }]);
    // @ts-expect-error a phone is text
    insert('sellers', [{ code: 'c', name: 'n', phone: 13600136000 }]);
    // @ts-expect-error a required column is missing
    insert('sellers', [{ code: 'c', name: 'n' }]);
    // @ts-expect-error a 0/1 column takes no other number
    update('sellers', { enabled: 2 });
  });
});
