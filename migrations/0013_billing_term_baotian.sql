-- Issue 13 / docs/decisions/034: billing method 2 is called 包天 everywhere. Rename it in the catalogue and in the names
-- of packages customers hold (orders keep the title they were bought under).
UPDATE meals SET name = replace(name, ' 按时 ', ' 包天 ') WHERE billing_method = 2 AND name LIKE '% 按时 %';
UPDATE activities SET name = replace(name, '包时', '包天') WHERE name LIKE '%包时%';
UPDATE proxy_packages SET name = replace(name, ' 按时 ', ' 包天 ') WHERE name LIKE '% 按时 %';
