// The sign-in popup lands here: tell the opening tab how the attempt settled, then close.
// Without an opener (popup blocked → full-page redirect) go to where the app would go.
(function () {
  var params = new URLSearchParams(location.search);
  var error = params.get('erro');
  var message = { type: 'voltas-auth', ok: !error, error: error || null };
  var told = false;
  try {
    if ('BroadcastChannel' in window) {
      var channel = new BroadcastChannel('voltas-auth');
      channel.postMessage(message);
      channel.close();
      told = true;
    }
  } catch (e) { /* fall through */ }
  try {
    if (window.opener && window.opener !== window) {
      window.opener.postMessage(message, location.origin);
      told = true;
    }
  } catch (e) { /* cross-origin opener: BroadcastChannel already told it */ }
  if (told && window.opener) {
    window.close();
    return;
  }
  location.replace(error ? '/login?erro=' + encodeURIComponent(error) : '/user');
})();
