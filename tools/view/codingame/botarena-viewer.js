/* botarena's page around CodinGame's player (the SDK's player.js): it reads the game log
   (game.json) and botarena.json (the bots' names, offline avatars), gives the player the frames
   as the SDK's own page does, and shows each frame's summary, outputs and stderr beside it.
   Everything is set with textContent: bot output is text, never markup. */
(function () {
  'use strict'

  const state = { log: null, info: null, gameInfo: null, parsed: null, player: null, frame: -1, atEnd: false }
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

  /* A frame of the player's (a game turn: its subframes are the views of that turn, each with
     its acting agent's output and stderr), shown beside it as the SDK's own page shows it. */
  function showFrame (frame, atEnd) {
    const parsed = state.parsed
    const data = parsed && parsed.frames[frame]
    if (!data) return
    state.frame = frame
    state.atEnd = atEnd
    document.body.dataset.frame = String(frame)
    document.body.dataset.atEnd = String(atEnd)
    setText('frame-line', 'frame ' + frame + ' / ' + (parsed.frames.length - 1))
    showSummary(data.gameSummary)
    setText('referee-stderr', data.referee && data.referee.stderr)
    state.gameInfo.agents.forEach(function (agent, seat) {
      const panel = byId('agent-' + seat)
      const subframe = (data.subframes || []).find(function (sub) { return sub.agentId === String(seat) })
      panel.querySelector('.stdout').textContent = subframe && subframe.stdout ? subframe.stdout : ''
      panel.querySelector('.stderr').textContent = subframe && subframe.stderr ? subframe.stderr : ''
    })
    byId('scores').hidden = !atEnd
  }

  /* A summary as the SDK's page shows it: ¤RED¤...§RED§ and ¤GREEN¤...§GREEN§ coloured, $N the
     name of player N; built from text nodes, never markup. */
  function showSummary (text) {
    const box = byId('summary')
    box.textContent = ''
    let parent = box
    String(text || '').split(/(\xa4(?:RED|GREEN)\xa4|\xa7(?:RED|GREEN)\xa7|\$[0-7])/).forEach(function (part) {
      const open = /^\xa4(RED|GREEN)\xa4$/.exec(part)
      const name = /^\$([0-7])$/.exec(part)
      const agents = state.gameInfo.agents
      if (open) {
        const span = document.createElement('span')
        span.className = open[1] === 'RED' ? 'console-error' : 'console-success'
        parent.append(span)
        parent = span
      } else if (/^\xa7(RED|GREEN)\xa7$/.test(part)) {
        if (parent !== box) parent = parent.parentNode
      } else if (name && agents[Number(name[1])]) {
        const span = document.createElement('span')
        const parsedAgent = state.parsed.agents && state.parsed.agents[Number(name[1])]
        span.className = 'nickname'
        span.textContent = agents[Number(name[1])].name
        if (parsedAgent && parsedAgent.color) span.style.backgroundColor = parsedAgent.color
        parent.append(span)
      } else if (part) {
        parent.append(document.createTextNode(part))
      }
    })
  }

  state.showSummary = showSummary

  /* The player does not report a frame it was told to show: the panels follow here. */
  function goTo (frame) {
    const last = state.parsed.frames.length - 1
    const target = Math.max(0, Math.min(frame, last))
    state.player.setFrame(target, 1)
    showFrame(target, target === last)
  }
  state.goTo = goTo

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
        libraries: Object.fromEntries(Object.entries(info.libraries).map(function (entry) {
          return [entry[0], new URL(entry[1], here).href]
        }))
      })
      state.player = player
      player.on('error', function (error) {
        showError(error.message + (error.cause ? '\n' + (error.cause.message || error.cause) : ''))
      })
      createSameOriginIframe(player, byId('player'))
      player.setOptions({ showConsole: false, showRankings: false, showSmallRankings: false,
        asyncRendering: true, shareable: false, showReplayPrompt: false })
      player.on('parsedGameInfo', function (parsed) {
        state.parsed = parsed
        setText('status', parsed.frames.length + ' frames (' + gameInfo.frames.length + ' views)')
        document.body.dataset.loaded = 'true'
        showFrame(0, false)
      })
      player.subscribe(function (frame, progress, playing, isSubFrame, isTurnBased, atEnd) {
        if (frame !== state.frame || atEnd !== state.atEnd) showFrame(frame, atEnd)
      })
      await player.sendFrames(gameInfo)
    } catch (error) {
      setText('status', 'cannot show the game')
      showError(String(error && error.message ? error.message : error))
    }
  }

  start()
})()
