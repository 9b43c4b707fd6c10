/* botarena's page around CodinGame's player (the SDK's player.js): it reads the game log
   (game.json) and botarena.json (the bots' names, offline avatars), gives the player the frames
   as the SDK's own page does, and shows each frame's summary, outputs and stderr beside it.
   Everything is set with textContent: bot output is text, never markup. */
(function () {
  'use strict'

  const state = { log: null, info: null, gameInfo: null, player: null, frame: -1, atEnd: false }
  window.botarenaViewer = state

  function byId (id) { return document.getElementById(id) }

  function setText (id, text) { byId(id).textContent = text == null ? '' : String(text) }

  function showError (message) {
    byId('errors').hidden = false
    byId('error-list').textContent += message + '\n'
    document.body.dataset.errors = String((Number(document.body.dataset.errors) || 0) + 1)
  }

  async function fetchJson (name) {
    const response = await fetch(name, { cache: 'no-store' })
    if (!response.ok) throw new Error(name + ': HTTP ' + response.status)
    return response.json()
  }

  /* The SDK's frame format, as its runner page converts the log: one frame per view, its
     keyframe flag from the view's first word, the summary, the referee's and the acting
     player's output and stderr. */
  function toGameInfo (log, info) {
    const ids = Object.keys(log.ids)
    const frames = log.views.map(function (view, index) {
      const text = view == null ? '' : view
      const frame = {
        view: text.replace(/^(KEY_FRAME)|(INTERMEDIATE_FRAME)/, ''),
        keyframe: text.split('\n')[0].split(' ')[0] === 'KEY_FRAME',
        gameSummary: log.summaries[index],
        referee: {}
      }
      const refereeOut = log.outputs.referee[index]
      const refereeErr = log.errors.referee[index]
      if (refereeOut) frame.referee.stdout = refereeOut
      if (refereeErr) frame.referee.stderr = refereeErr
      ids.forEach(function (id) {
        const stdout = log.outputs[id][index]
        const stderr = log.errors[id][index]
        if (stdout || stderr) frame.agentId = id
        if (stderr) frame.stderr = stderr
        if (stdout) frame.stdout = stdout
      })
      return frame
    })
    const agents = log.agents.map(function (agent, seat) {
      return Object.assign({}, agent, {
        name: info.names[seat] || agent.name,
        avatarUrl: info.avatars[seat] || null   // never the log's: CodinGame's, online
      })
    })
    return { agents: agents, frames: frames, tooltips: log.tooltips.map(function (tip) { return JSON.stringify(tip) }) }
  }

  function renderAgents (gameInfo) {
    const box = byId('agents')
    gameInfo.agents.forEach(function (agent, seat) {
      const panel = document.createElement('div')
      panel.className = 'agent'
      panel.id = 'agent-' + seat
      const title = document.createElement('h2')
      title.textContent = 'Player ' + seat + ': ' + agent.name
      const out = document.createElement('pre')
      out.className = 'stdout'
      const err = document.createElement('pre')
      err.className = 'stderr'
      panel.append(title, out, err)
      box.append(panel)
    })
  }

  function showFrame (frame, atEnd) {
    const gameInfo = state.gameInfo
    const data = gameInfo.frames[frame]
    if (!data) return
    state.frame = frame
    state.atEnd = atEnd
    document.body.dataset.frame = String(frame)
    document.body.dataset.atEnd = String(atEnd)
    setText('frame-line', 'frame ' + frame + ' / ' + (gameInfo.frames.length - 1))
    setText('summary', data.gameSummary)
    setText('referee-stderr', data.referee.stderr)
    gameInfo.agents.forEach(function (agent, seat) {
      const panel = byId('agent-' + seat)
      const acting = data.agentId === String(seat)
      panel.querySelector('.stdout').textContent = acting && data.stdout ? data.stdout : ''
      panel.querySelector('.stderr').textContent = acting && data.stderr ? data.stderr : ''
    })
    byId('scores').hidden = !atEnd
  }

  function renderScores (log, gameInfo) {
    const table = document.createElement('table')
    gameInfo.agents.forEach(function (agent, seat) {
      const row = table.insertRow()
      row.insertCell().textContent = agent.name
      row.insertCell().textContent = String(log.scores[String(seat)])
    })
    const title = document.createElement('h2')
    title.textContent = 'Scores'
    byId('scores').append(title, table)
  }

  /* The player's iframe, sandboxed as the SDK makes it, but with its page's origin: without
     one its modules are fetched cross-origin, which a static server without CORS headers
     refuses. The flag must be there when the iframe is inserted (its first navigation), so the
     container's appendChild adds it. The page's and the player's policies still let nothing
     come from elsewhere. */
  function createSameOriginIframe (player, container) {
    container.appendChild = function (node) {
      if (node.tagName === 'IFRAME') node.sandbox.add('allow-same-origin')
      return Node.prototype.appendChild.call(this, node)
    }
    try {
      return player.createIframe(container)
    } finally {
      delete container.appendChild
    }
  }

  async function start () {
    try {
      const [log, info] = await Promise.all([fetchJson('game.json'), fetchJson('botarena.json')])
      state.log = log
      state.info = info
      document.title = 'botarena: ' + info.title
      setText('title', info.title)
      if (log.failCause) {
        showError(log.failCause)
        return
      }
      const gameInfo = toGameInfo(log, info)
      state.gameInfo = gameInfo
      renderAgents(gameInfo)
      renderScores(log, gameInfo)
      const here = window.location.href
      const player = window['cg-player'].default({
        viewerUrl: new URL('core/Drawer.js', here).href,
        localStorageKey: 'botarena-cg-player',
        src: './player.html',
        libraries: { PIXI6: new URL('lib/pixi6.js', here).href }
      })
      state.player = player
      player.on('error', function (error) {
        showError(error.message + (error.cause ? '\n' + (error.cause.message || error.cause) : ''))
      })
      createSameOriginIframe(player, byId('player'))
      player.setOptions({ showConsole: false, showRankings: false, showSmallRankings: false,
        asyncRendering: true, shareable: false, showReplayPrompt: false })
      player.subscribe(function (frame, progress, playing, isSubFrame, isTurnBased, atEnd) {
        if (frame !== state.frame || atEnd !== state.atEnd) showFrame(frame, atEnd)
      })
      await player.sendFrames(gameInfo)
      setText('status', gameInfo.frames.length + ' frames; ' + gameInfo.agents.map(function (agent) { return agent.name }).join(' vs '))
      document.body.dataset.loaded = 'true'
      showFrame(0, false)
    } catch (error) {
      setText('status', 'cannot show the game')
      showError(String(error && error.message ? error.message : error))
    }
  }

  start()
})()
