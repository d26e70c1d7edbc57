// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./ERC20.sol";

/// A token only its protocol mints and burns: a dpnm launch's instance (the traded token) and
/// its GWT. Burning takes no allowance because the protocol only ever burns from the account
/// that called it, in `sell` and `buyIncomeLimitWithGWT`.
contract DpnmToken is ERC20 {
    bytes16 public immutable ref;
    address public immutable protocol;

    constructor(bytes16 ref_, string memory name_, string memory symbol_) ERC20(name_, symbol_) {
        ref = ref_;
        protocol = msg.sender;
    }

    modifier onlyProtocol() {
        require(msg.sender == protocol, "protocol");
        _;
    }

    function mint(address to, uint256 value) external onlyProtocol {
        _mint(to, value);
    }

    function burn(address from, uint256 value) external onlyProtocol {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        totalSupply -= value;
        emit Transfer(from, address(0), value);
    }
}

/// The 3-wide referral tree of one dpnm launch (docs/chain.md "dpnm"), written only by its
/// protocol; the launch's creator is the root. A new member goes where a breadth-first search
/// of the referrer's subtree would put them: under the shallowest node with a free slot,
/// leftmost first, slots filled 0, 1, 2. Rather than visiting the subtree (whose size grows
/// threefold per level), every node keeps how many levels below it are complete, capped at
/// LEVELS; those counts lead straight down to that node, so a placement costs the same gas
/// however large the tree. A member lands at most LEVELS below the referrer, so the referrer
/// is always among the uplines the trade fee pays.
contract PhenomenalTree {
    uint8 public constant WIDTH = 3;
    uint8 public constant LEVELS = 10;

    struct Node {
        address parent;
        uint8 childCount;
        // Complete levels below the node (every node above them has WIDTH children), ≤ LEVELS.
        uint8 fullLevels;
        bool placed;
        address[3] children;
    }

    address public immutable protocol;
    address public immutable root;
    mapping(address => Node) internal nodes;

    constructor(address root_) {
        protocol = msg.sender;
        root = root_;
        nodes[root_].placed = true;
    }

    /// Places `user` in `referrer`'s subtree. The tree makes the checks (`activated`,
    /// `referrer`, `tree full`), so the protocol needs no reads of its own first.
    function place(address user, address referrer) external returns (address parent, uint8 slot) {
        require(msg.sender == protocol, "protocol");
        require(!nodes[user].placed, "activated");
        (parent, slot) = vacancyUnder(referrer);
        nodes[parent].children[slot] = user;
        nodes[parent].childCount = slot + 1;
        nodes[user].parent = parent;
        nodes[user].placed = true;
        // A count changes only when a level completes; it stops changing a few levels up.
        for (address a = parent; a != address(0); a = nodes[a].parent) {
            uint8 full = _countFullLevels(a);
            if (full == nodes[a].fullLevels) break;
            nodes[a].fullLevels = full;
        }
    }

    /// Where a member referred by `referrer` would be placed now: the parent and its slot.
    function vacancyUnder(address referrer) public view returns (address parent, uint8 slot) {
        require(nodes[referrer].placed, "referrer");
        uint8 depth = nodes[referrer].fullLevels;
        require(depth < LEVELS, "tree full");
        parent = referrer;
        // The leftmost child one level short of the parent's count holds the shallowest gap.
        for (; depth > 0; depth--) {
            address[3] storage children = nodes[parent].children;
            uint256 i;
            while (nodes[children[i]].fullLevels != depth - 1) i++;
            parent = children[i];
        }
        slot = nodes[parent].childCount;
    }

    function _countFullLevels(address user) internal view returns (uint8) {
        Node storage node = nodes[user];
        if (node.childCount < WIDTH) return 0;
        uint8 least = LEVELS;
        for (uint256 i; i < WIDTH; i++) {
            uint8 full = nodes[node.children[i]].fullLevels;
            if (full < least) least = full;
        }
        return least < LEVELS ? least + 1 : LEVELS;
    }

    function isPlaced(address user) external view returns (bool) {
        return nodes[user].placed;
    }

    function parentOf(address user) external view returns (address) {
        return nodes[user].parent;
    }

    /// The children in slot order, zero for an empty slot.
    function childrenOf(address user) external view returns (address[3] memory) {
        return nodes[user].children;
    }

    function fullLevelsOf(address user) external view returns (uint8) {
        return nodes[user].fullLevels;
    }

    /// The parent, the parent's parent, … up to LEVELS of them, zero past the root.
    function uplinesOf(address user) external view returns (address[10] memory uplines) {
        address a = nodes[user].parent;
        for (uint256 i; i < LEVELS && a != address(0); i++) {
            uplines[i] = a;
            a = nodes[a].parent;
        }
    }
}

/// One dpnm launch (docs/chain.md "dpnm"): the token trades against a USDT pool at the pool's
/// average price, every trade pays a 10 % fee up the trader's referral tree, buys are capped
/// per trader per day, and sells are capped by an income limit that buys and GWT raise.
/// Every change a reader needs is an event; the indexer never reads storage.
contract DpnmProtocol {
    uint256 public constant FEE_BPS = 1000;
    uint8 public constant LEVELS = 10;
    uint256 public constant ACTIVATION_PERIOD = 30 days;
    uint256 public constant DAY = 24 hours;

    struct Params {
        uint256 initialPrice;
        uint256 dailyLimitFloor;
        uint32 incomeLimitMultiplierBps;
        uint256 treeActivationCost;
    }

    event Bought(
        address indexed trader,
        uint256 usdtIn,
        uint256 tokensOut,
        uint256 feeUsdt,
        uint256 price,
        uint256 dailyWindowStart,
        uint256 dailyDeposited,
        uint256 incomeLimit
    );
    event Sold(
        address indexed trader,
        uint256 tokensIn,
        uint256 usdtOut,
        uint256 feeUsdt,
        uint256 price,
        uint256 incomeLimit,
        uint256 lifetimeIncome
    );
    event UplinePaid(
        address indexed upline,
        address indexed from,
        uint8 level,
        uint256 amountUsdt,
        uint256 lifetimeIncome
    );
    event GwtAccrued(
        address indexed upline,
        address indexed from,
        uint8 level,
        uint256 amount,
        uint256 claimable
    );
    event Activated(
        address indexed user,
        address indexed referrer,
        address indexed parent,
        uint8 slot,
        uint256 activeUntil
    );
    event TreeExtended(address indexed user, uint256 activeUntil);
    event GwtClaimed(address indexed user, uint256 amount);
    event IncomeLimitBought(address indexed user, uint256 gwtAmount, uint256 incomeLimit);
    event PoolUpdated(uint256 poolUsdt, uint256 totalSupply, uint256 price, uint256 lifetimeFeesUsdt);

    ERC20 public immutable usdt;
    DpnmToken public immutable token;
    DpnmToken public immutable gwt;
    PhenomenalTree public immutable tree;
    address public immutable creator;
    uint256 public immutable initialPrice;
    uint256 public immutable dailyLimitFloor;
    uint32 public immutable incomeLimitMultiplierBps;
    uint256 public immutable treeActivationCost;

    /// The protocol's USDT balance, always: what trades and activations paid in, less payouts.
    uint256 public poolUsdt;
    uint256 public lifetimeFeesUsdt;
    uint256 public lifetimeGwtMinted;
    mapping(address => uint256) public incomeLimit;
    mapping(address => uint256) public lifetimeIncome;
    mapping(address => uint256) public claimableGwt;
    mapping(address => uint256) public activeUntil;
    mapping(address => uint256) public dailyWindowStart;
    mapping(address => uint256) public dailyDeposited;

    constructor(
        ERC20 usdt_,
        address creator_,
        bytes16 ref,
        string memory name,
        string memory symbol,
        Params memory params
    ) {
        usdt = usdt_;
        creator = creator_;
        initialPrice = params.initialPrice;
        dailyLimitFloor = params.dailyLimitFloor;
        incomeLimitMultiplierBps = params.incomeLimitMultiplierBps;
        treeActivationCost = params.treeActivationCost;
        token = new DpnmToken(ref, name, symbol);
        gwt = new DpnmToken(ref, string.concat(name, " GWT"), "GWT");
        tree = new PhenomenalTree(creator_);
        // The creator roots the tree without paying: there is no pool to pay into yet.
        uint256 until = block.timestamp + ACTIVATION_PERIOD;
        activeUntil[creator_] = until;
        emit Activated(creator_, address(0), address(0), 0, until);
    }

    /// USDT per whole token (18 decimals): the pool over the supply, `initialPrice` before any.
    function price() public view returns (uint256) {
        uint256 supply = token.totalSupply();
        return supply == 0 ? initialPrice : (poolUsdt * 1e18) / supply;
    }

    /// What one trader may buy for in a 24 h window: 1 % of the pool, at least the floor.
    function dailyLimit() public view returns (uint256) {
        uint256 share = poolUsdt / 100;
        return share > dailyLimitFloor ? share : dailyLimitFloor;
    }

    function dailyLimitRemaining(address trader) external view returns (uint256) {
        uint256 limit = dailyLimit();
        uint256 used = block.timestamp >= dailyWindowStart[trader] + DAY ? 0 : dailyDeposited[trader];
        return used >= limit ? 0 : limit - used;
    }

    /// Pays `usdtIn` (approved beforehand) for tokens at `price()`, less the fee; raises the
    /// trader's income limit by `usdtIn` × the multiplier.
    function buy(uint256 usdtIn, uint256 amountOutMin, uint256 deadline)
        external
        returns (uint256 tokensOut)
    {
        require(block.timestamp <= deadline, "deadline");
        require(usdtIn > 0, "amount");
        if (block.timestamp >= dailyWindowStart[msg.sender] + DAY) {
            dailyWindowStart[msg.sender] = block.timestamp;
            dailyDeposited[msg.sender] = 0;
        }
        uint256 deposited = dailyDeposited[msg.sender] + usdtIn;
        require(deposited <= dailyLimit(), "daily limit");
        dailyDeposited[msg.sender] = deposited;
        uint256 fee = (usdtIn * FEE_BPS) / 10000;
        uint256 executionPrice = price();
        tokensOut = ((usdtIn - fee) * 1e18) / executionPrice;
        require(tokensOut >= amountOutMin, "slippage");
        usdt.transferFrom(msg.sender, address(this), usdtIn);
        token.mint(msg.sender, tokensOut);
        poolUsdt += usdtIn - fee;
        _distribute(msg.sender, fee);
        uint256 limit = incomeLimit[msg.sender] + (usdtIn * incomeLimitMultiplierBps) / 10000;
        incomeLimit[msg.sender] = limit;
        emit Bought(
            msg.sender,
            usdtIn,
            tokensOut,
            fee,
            executionPrice,
            dailyWindowStart[msg.sender],
            deposited,
            limit
        );
        _poolUpdated();
    }

    /// Burns `tokensIn` (no approval: only the caller's own) for USDT at `price()`, less the
    /// fee; pays at most the trader's income limit, which it lowers by what it pays.
    function sell(uint256 tokensIn, uint256 amountOutMin, uint256 deadline)
        external
        returns (uint256 usdtOut)
    {
        require(block.timestamp <= deadline, "deadline");
        require(tokensIn > 0, "amount");
        uint256 executionPrice = price();
        uint256 gross = (tokensIn * executionPrice) / 1e18;
        uint256 fee = (gross * FEE_BPS) / 10000;
        usdtOut = gross - fee;
        require(usdtOut >= amountOutMin, "slippage");
        uint256 limit = incomeLimit[msg.sender];
        require(usdtOut <= limit, "income limit");
        token.burn(msg.sender, tokensIn);
        // gross ≤ the pool: the price rounds down, and tokensIn ≤ the supply (the burn passed).
        poolUsdt -= gross;
        incomeLimit[msg.sender] = limit - usdtOut;
        lifetimeIncome[msg.sender] += usdtOut;
        usdt.transfer(msg.sender, usdtOut);
        _distribute(msg.sender, fee);
        emit Sold(
            msg.sender,
            tokensIn,
            usdtOut,
            fee,
            executionPrice,
            limit - usdtOut,
            lifetimeIncome[msg.sender]
        );
        _poolUpdated();
    }

    /// Joins the tree under `referrer` (zero: the creator) for ACTIVATION_PERIOD.
    function activate(address referrer) external {
        if (referrer == address(0)) referrer = creator;
        (address parent, uint8 slot) = tree.place(msg.sender, referrer);
        _payActivation();
        uint256 until = block.timestamp + ACTIVATION_PERIOD;
        activeUntil[msg.sender] = until;
        emit Activated(msg.sender, referrer, parent, slot, until);
        _poolUpdated();
    }

    /// Another ACTIVATION_PERIOD, from the current expiry or, once expired, from now.
    function extendTree() external {
        require(tree.isPlaced(msg.sender), "not activated");
        _payActivation();
        uint256 from = activeUntil[msg.sender];
        if (from < block.timestamp) from = block.timestamp;
        uint256 until = from + ACTIVATION_PERIOD;
        activeUntil[msg.sender] = until;
        emit TreeExtended(msg.sender, until);
        _poolUpdated();
    }

    /// Mints the GWT accrued while the caller's activation had lapsed (1 GWT per USDT missed).
    function claimGWT() external {
        uint256 amount = claimableGwt[msg.sender];
        require(amount > 0, "nothing to claim");
        claimableGwt[msg.sender] = 0;
        lifetimeGwtMinted += amount;
        gwt.mint(msg.sender, amount);
        emit GwtClaimed(msg.sender, amount);
    }

    /// Burns `amount` GWT for as much income limit (1 GWT = 1 USDT of sells).
    function buyIncomeLimitWithGWT(uint256 amount) external {
        require(amount > 0, "amount");
        gwt.burn(msg.sender, amount);
        uint256 limit = incomeLimit[msg.sender] + amount;
        incomeLimit[msg.sender] = limit;
        emit IncomeLimitBought(msg.sender, amount, limit);
    }

    /// Pays each of the trader's LEVELS uplines a tenth of the fee: in USDT while active; while
    /// lapsed the USDT stays in the pool and the upline accrues as much GWT. Levels without an
    /// upline and the rounding dust go to the pool.
    function _distribute(address trader, uint256 fee) internal {
        lifetimeFeesUsdt += fee;
        uint256 share = fee / LEVELS;
        uint256 toPool = fee - share * LEVELS;
        address[10] memory uplines;
        // Under LEVELS wei of fee there is nothing to share: all of it is pool dust.
        if (share > 0) uplines = tree.uplinesOf(trader);
        for (uint8 level = 1; level <= LEVELS; level++) {
            address upline = uplines[level - 1];
            if (upline == address(0)) {
                toPool += share;
            } else if (activeUntil[upline] > block.timestamp) {
                uint256 income = lifetimeIncome[upline] + share;
                lifetimeIncome[upline] = income;
                usdt.transfer(upline, share);
                emit UplinePaid(upline, trader, level, share, income);
            } else {
                uint256 claimable = claimableGwt[upline] + share;
                claimableGwt[upline] = claimable;
                toPool += share;
                emit GwtAccrued(upline, trader, level, share, claimable);
            }
        }
        poolUsdt += toPool;
    }

    function _payActivation() internal {
        usdt.transferFrom(msg.sender, address(this), treeActivationCost);
        poolUsdt += treeActivationCost;
    }

    function _poolUpdated() internal {
        emit PoolUpdated(poolUsdt, token.totalSupply(), price(), lifetimeFeesUsdt);
    }
}

/// The `dpnm` template (docs/chain.md): each launch deploys a `DpnmProtocol` with its token
/// (the instance), its GWT and its `PhenomenalTree`, rooted at the creator.
contract DpnmFactory {
    event Launched(bytes16 indexed ref, address indexed instance, address indexed creator);
    event DpnmLaunched(
        address indexed instance,
        address protocol,
        address tree,
        address gwt,
        uint256 initialPrice,
        uint256 dailyLimitFloor,
        uint32 incomeLimitMultiplierBps,
        uint256 treeActivationCost
    );

    ERC20 public immutable usdt;
    /// The protocol of each instance this factory launched (zero for any other address).
    mapping(address => DpnmProtocol) public protocolOf;

    constructor(ERC20 usdt_) {
        usdt = usdt_;
    }

    function launch(
        bytes16 ref,
        string calldata name,
        string calldata symbol,
        uint256 initialPrice,
        uint256 dailyLimitFloor,
        uint32 incomeLimitMultiplierBps,
        uint256 treeActivationCost
    ) external returns (address instance) {
        require(initialPrice > 0, "initialPrice");
        require(incomeLimitMultiplierBps > 0, "incomeLimitMultiplierBps");
        require(treeActivationCost > 0, "treeActivationCost");
        DpnmProtocol.Params memory params = DpnmProtocol.Params(
            initialPrice,
            dailyLimitFloor,
            incomeLimitMultiplierBps,
            treeActivationCost
        );
        DpnmProtocol protocol = new DpnmProtocol(usdt, msg.sender, ref, name, symbol, params);
        instance = address(protocol.token());
        protocolOf[instance] = protocol;
        emit Launched(ref, instance, msg.sender);
        _announce(instance, protocol, params);
    }

    function _announce(address instance, DpnmProtocol protocol, DpnmProtocol.Params memory params)
        internal
    {
        emit DpnmLaunched(
            instance,
            address(protocol),
            address(protocol.tree()),
            address(protocol.gwt()),
            params.initialPrice,
            params.dailyLimitFloor,
            params.incomeLimitMultiplierBps,
            params.treeActivationCost
        );
    }
}
