// The channel from an injected script to Python (run in ApplicationWorld, after qwebchannel.js).
//
// Defines globalThis.__recordlens.bridge(objectName) -> {report(method, arg), connect()}: `report` calls the
// Python object registered on the page's QWebChannel under `objectName`, queueing calls made before the
// channel is up (scripts are injected at document creation, before the transport exists).
(() => {
  const rl = (globalThis.__recordlens = globalThis.__recordlens || {});

  rl.bridge = (objectName) => {
    let bridge = null;
    let connecting = false;
    const outbox = [];

    const connect = () => {
      if (bridge || connecting) return;
      if (typeof qt === "undefined" || !qt.webChannelTransport || typeof QWebChannel === "undefined") return;
      connecting = true;
      new QWebChannel(qt.webChannelTransport, (channel) => {
        bridge = channel.objects[objectName] || null;
        connecting = false;
        while (bridge && outbox.length) {
          const [method, arg] = outbox.shift();
          bridge[method](arg);
        }
      });
    };

    const report = (method, arg) => {
      connect();
      if (bridge) bridge[method](arg);
      else outbox.push([method, arg]);
    };

    return { report, connect };
  };
})();
