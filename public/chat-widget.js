// Stand-in for the vendor's online-chat script (the address is configuration: CHAT_SCRIPT_URL). Renders a floating
// "在线客服" button with a small panel. Hidden whenever <html data-chat-hidden="1"> (personal centre, narrow screens).
(() => {
  if (document.getElementById('online-chat-widget')) return;
  const style = document.createElement('style');
  style.textContent =
    '#online-chat-widget{position:fixed;right:16px;bottom:24px;z-index:45;font:14px/1.5 system-ui,sans-serif}' +
    'html[data-chat-hidden="1"] #online-chat-widget{display:none}' +
    '#online-chat-widget button{background:#1d54f5;color:#fff;border:0;border-radius:999px;padding:10px 18px;box-shadow:0 6px 20px rgba(29,84,245,.35);cursor:pointer}' +
    '#online-chat-widget .panel{position:absolute;right:0;bottom:52px;width:280px;background:#fff;color:#1e293b;border-radius:12px;box-shadow:0 12px 32px rgba(15,27,61,.18);padding:16px}' +
    '#online-chat-widget .panel[hidden]{display:none}';
  document.head.appendChild(style);
  const root = document.createElement('div');
  root.id = 'online-chat-widget';
  root.setAttribute('data-testid', 'online-chat');
  root.innerHTML =
    '<div class="panel" hidden role="dialog" aria-label="在线客服"><strong>在线客服</strong>' +
    '<p style="margin:8px 0 0">您好，欢迎咨询！工作时间 9:00-21:00，也可拨打客服热线 400-820-6688。</p></div>' +
    '<button type="button" aria-expanded="false">在线客服</button>';
  const button = root.querySelector('button');
  const panel = root.querySelector('.panel');
  button.addEventListener('click', () => {
    panel.hidden = !panel.hidden;
    button.setAttribute('aria-expanded', String(!panel.hidden));
  });
  document.body.appendChild(root);
})();
