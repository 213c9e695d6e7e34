-- Review fixes (commerce / delivery). Forward-only.
-- Dedicated (fixed/premium) IPs are allocated only from the region the package was bought for: a sale region carries
-- the same suffix-free keys as proxy_ips (province_key, city_key; see regionKey in src/server/domain/regions.ts).
-- city_key set: IPs of that city; else province_key set: IPs of that province; both empty (e.g. overseas regions
-- with no pool yet): nothing matches, and such packages wait (待分配) instead of getting another region's IPs.
ALTER TABLE meal_regions ADD COLUMN province_key TEXT NOT NULL DEFAULT '';
ALTER TABLE meal_regions ADD COLUMN city_key TEXT NOT NULL DEFAULT '';

-- Backfill domestic regions: the region name is a city (深圳, 北京市 ...), province its province (广东, 广东省 ...).
UPDATE meal_regions SET
  city_key = CASE
    WHEN length(trim(name)) > 2 AND substr(trim(name), -1) IN ('市', '省') THEN substr(trim(name), 1, length(trim(name)) - 1)
    ELSE trim(name) END,
  province_key = CASE
    WHEN length(trim(province)) > 7 AND substr(trim(province), -6) = '维吾尔自治区' THEN substr(trim(province), 1, length(trim(province)) - 6)
    WHEN length(trim(province)) > 6 AND substr(trim(province), -5) IN ('壮族自治区', '回族自治区') THEN substr(trim(province), 1, length(trim(province)) - 5)
    WHEN length(trim(province)) > 6 AND substr(trim(province), -5) = '特别行政区' THEN substr(trim(province), 1, length(trim(province)) - 5)
    WHEN length(trim(province)) > 4 AND substr(trim(province), -3) = '自治区' THEN substr(trim(province), 1, length(trim(province)) - 3)
    WHEN length(trim(province)) > 2 AND substr(trim(province), -1) IN ('省', '市') THEN substr(trim(province), 1, length(trim(province)) - 1)
    ELSE trim(province) END
WHERE is_overseas = 0;
