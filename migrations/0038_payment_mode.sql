-- How a payment attempt was opened (docs/decisions/223): 'qr' a QR code (WeChat Native, Alipay 当面付), 'page'
-- Alipay's web cashier, 'wap' a phone's own payment (WeChat H5, Alipay 手机网站支付). A live attempt is reused only for
-- the same rail and way of paying.
ALTER TABLE payments ADD COLUMN mode TEXT NOT NULL DEFAULT 'qr' CHECK (mode IN ('qr', 'page', 'wap'));
